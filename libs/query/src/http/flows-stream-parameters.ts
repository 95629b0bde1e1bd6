import {
  FROM_DATE_PARAMETER,
  PROJECT_ID_PARAMETER,
  QueryParameterDoc,
  requiredParameter,
  TO_DATE_PARAMETER,
  WHERE_PARAMETER,
} from '@analytics/http';
import {
  DEFAULT_FLOW_LIMIT,
  DEFAULT_FLOW_STEPS,
  FLOW_DIRECTIONS,
  MAX_FLOW_LIMIT,
  MAX_FLOW_STEPS,
} from '../flows/flows-spec';
import { DEFAULT_STREAM_LIMIT, MAX_STREAM_IDS, MAX_STREAM_LIMIT } from '../stream/stream-query';

/** The flows and activity-stream parameters of QUERY_PARAMETERS (query-parameters.ts), for the OpenAPI document. */
export const FLOWS_PARAMETERS: QueryParameterDoc[] = [
  PROJECT_ID_PARAMETER,
  { name: 'event', required: true, description: 'The anchor event: paths start (or end) at it.', example: 'Signed up' },
  {
    name: 'direction',
    enum: FLOW_DIRECTIONS,
    description: 'after (default): the events that follow the anchor; before: those that lead to it.',
    example: 'after',
  },
  {
    name: 'steps',
    type: 'integer',
    description: `Events followed from the anchor (1 to ${MAX_FLOW_STEPS}, default ${DEFAULT_FLOW_STEPS}).`,
    example: '3',
  },
  requiredParameter(FROM_DATE_PARAMETER),
  requiredParameter(TO_DATE_PARAMETER),
  { ...WHERE_PARAMETER, description: 'A filter expression on the anchor event only (the steps are any events).' },
  {
    name: 'limit',
    type: 'integer',
    description: `Paths listed, the most taken first (1 to ${MAX_FLOW_LIMIT}, default ${DEFAULT_FLOW_LIMIT}).`,
    example: '10',
  },
];

export const STREAM_PARAMETERS: QueryParameterDoc[] = [
  PROJECT_ID_PARAMETER,
  {
    name: 'distinct_ids',
    required: true,
    description: `A JSON array of at most ${MAX_STREAM_IDS} ids; each brings the events of every id merged with it.`,
    example: '["user-1"]',
  },
  requiredParameter(FROM_DATE_PARAMETER),
  requiredParameter(TO_DATE_PARAMETER),
  {
    name: 'limit',
    type: 'integer',
    description: `Events per page, newest first (1 to ${MAX_STREAM_LIMIT}, default ${DEFAULT_STREAM_LIMIT}).`,
    example: '100',
  },
  {
    name: 'cursor',
    description: 'The previous page’s next_cursor, to read the page after it.',
  },
];

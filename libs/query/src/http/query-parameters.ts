import {
  FROM_DATE_PARAMETER,
  PROJECT_ID_PARAMETER,
  QueryParameterDoc,
  requiredParameter,
  TO_DATE_PARAMETER,
  WHERE_PARAMETER,
} from '@analytics/http';
import { LENGTH_UNITS } from '@analytics/report-definitions';
import { FLOWS_PARAMETERS, STREAM_PARAMETERS } from './flows-stream-parameters';
import { DEFAULT_FUNNEL_LIMIT, MAX_FUNNEL_LIMIT } from '../funnels/funnel-spec';
import { MAX_INTERVAL_COUNT } from '../retention/retention-spec';
import {
  DEFAULT_SEGMENTATION_LIMIT,
  MAX_SEGMENTATION_LIMIT,
  SEGMENTATION_TYPES,
} from '../segmentation/segmentation-spec';
import { SERIES_UNITS } from '../time/series';

/**
 * Each query API route's parameters for the OpenAPI document, next to nothing else: the parsers
 * read the request themselves, and query-parameters.spec.ts checks that they read only these.
 */
/** The reports' days are the project's time zone's (docs/queries.md, "Time zone"); the export's stay UTC. */
const from = requiredParameter({
  ...FROM_DATE_PARAMETER,
  description: "First day, yyyy-mm-dd, inclusive, in the project's time zone.",
});
const to = requiredParameter({
  ...TO_DATE_PARAMETER,
  description: "Last day, yyyy-mm-dd, inclusive, in the project's time zone.",
});
const event: QueryParameterDoc = {
  name: 'event',
  required: true,
  description: 'The event name.',
  example: 'Purchased',
};
const on: QueryParameterDoc = {
  name: 'on',
  description: 'A property expression to segment by, e.g. properties["$browser"].',
  example: 'properties["$browser"]',
};
const onNumber: QueryParameterDoc = {
  name: 'on',
  required: true,
  description: 'A numeric property expression, e.g. properties["amount"].',
  example: 'properties["amount"]',
};
const seriesUnit: QueryParameterDoc = {
  name: 'unit',
  enum: SERIES_UNITS,
  description: 'The period of each value; default day (hourly series span at most 31 days).',
  example: 'day',
};
const segmentationType: QueryParameterDoc = {
  name: 'type',
  enum: SEGMENTATION_TYPES,
  description: 'general counts events, unique counts users, average is events per user; default general.',
  example: 'unique',
};
const limit = (description: string, max: number): QueryParameterDoc => ({
  name: 'limit',
  type: 'integer',
  description: `${description} (1 to ${max}).`,
  example: '10',
});
const dayBuckets: QueryParameterDoc[] = [
  { name: 'interval', type: 'integer', description: 'Days per bucket; give either interval or unit.', example: '7' },
  { name: 'unit', enum: ['day', 'week', 'month'], description: 'Calendar buckets; give either interval or unit.' },
];
const lastPeriods: QueryParameterDoc[] = [
  {
    ...FROM_DATE_PARAMETER,
    description: "First day, yyyy-mm-dd (the project's time zone); with to_date, instead of interval.",
  },
  {
    ...TO_DATE_PARAMETER,
    description: "Last day, yyyy-mm-dd (the project's time zone); with from_date, instead of interval.",
  },
  {
    name: 'interval',
    type: 'integer',
    description: 'The last N periods of unit up to now (default 1), when no dates are given.',
    example: '7',
  },
];

export const QUERY_PARAMETERS = {
  insights: [
    PROJECT_ID_PARAMETER,
    {
      name: 'bookmark_id',
      type: 'integer',
      required: false,
      description: 'The saved insights report to compute (required unless `params` is given).',
      example: '1',
    },
    {
      name: 'params',
      type: 'string',
      required: false,
      description:
        'Our extension: an unsaved insights definition as JSON, the `params` a saved report holds, checked by the same rules (the console runs reports as they are built). Ignored when `bookmark_id` is given.',
      example: '{"events":[{"event":"Signed up","math":"unique"}],"last_days":30,"unit":"day"}',
    },
  ],
  funnels: [
    PROJECT_ID_PARAMETER,
    {
      name: 'funnel_id',
      type: 'integer',
      description: 'The saved funnel (required unless `params` is given).',
      example: '1',
    },
    {
      name: 'params',
      type: 'string',
      description:
        'Our extension: an unsaved funnel definition as JSON (steps, length, length_unit, where: what a saved funnel holds besides its name), checked by the same rules (the console runs funnels as they are built). Ignored when `funnel_id` is given.',
      example: '{"steps":[{"event":"Signed up"},{"event":"Purchased"}],"length":7,"length_unit":"day"}',
    },
    from,
    to,
    {
      name: 'length',
      type: 'integer',
      description: 'The conversion window, in length_unit (default: the saved funnel’s; at most 90 days).',
      example: '14',
    },
    {
      name: 'length_unit',
      enum: LENGTH_UNITS,
      description: 'The unit of length (default: the saved funnel’s).',
      example: 'day',
    },
    ...dayBuckets,
    WHERE_PARAMETER,
    on,
    limit(`With on: the top values kept, default ${DEFAULT_FUNNEL_LIMIT}`, MAX_FUNNEL_LIMIT),
  ],
  funnelList: [PROJECT_ID_PARAMETER],
  retention: [
    PROJECT_ID_PARAMETER,
    from,
    to,
    {
      name: 'retention_type',
      enum: ['birth', 'compounded'],
      description: 'birth (default): users counted from born_event; compounded: from any event.',
      example: 'birth',
    },
    {
      name: 'born_event',
      description: 'The event that puts a user in a cohort; required for birth retention.',
      example: 'Signed up',
    },
    { name: 'event', description: 'The returning event (default: any event).', example: 'Purchased' },
    {
      name: 'born_where',
      description: 'A filter expression on the born event.',
      example: 'properties["plan"] == "pro"',
    },
    WHERE_PARAMETER,
    ...dayBuckets,
    {
      name: 'interval_count',
      type: 'integer',
      description: `How many buckets after birth (0 to ${MAX_INTERVAL_COUNT}, default 1).`,
      example: '7',
    },
    {
      name: 'unbounded_retention',
      type: 'boolean',
      description: 'Count a user in every bucket up to their last return; default false.',
      example: 'false',
    },
  ],
  addiction: [
    PROJECT_ID_PARAMETER,
    from,
    to,
    { name: 'event', description: 'The event counted (default: any event).', example: 'Purchased' },
    WHERE_PARAMETER,
    {
      name: 'unit',
      enum: ['day', 'week', 'month'],
      description: 'The period users are grouped by; default day.',
      example: 'week',
    },
    {
      name: 'addiction_unit',
      enum: ['hour', 'day'],
      description: 'What is counted in each period; default day.',
      example: 'day',
    },
  ],
  cohortList: [PROJECT_ID_PARAMETER],
  segmentation: [
    PROJECT_ID_PARAMETER,
    event,
    from,
    to,
    seriesUnit,
    segmentationType,
    WHERE_PARAMETER,
    on,
    limit(`With on: the top values kept, default ${DEFAULT_SEGMENTATION_LIMIT}`, MAX_SEGMENTATION_LIMIT),
  ],
  numericBuckets: [PROJECT_ID_PARAMETER, event, from, to, onNumber, seriesUnit, segmentationType, WHERE_PARAMETER],
  numericSeries: [PROJECT_ID_PARAMETER, event, from, to, onNumber, seriesUnit, WHERE_PARAMETER],
  events: [
    PROJECT_ID_PARAMETER,
    {
      name: 'event',
      required: true,
      description: 'A JSON array of event names, each its own series.',
      example: '["Signed up","Purchased"]',
    },
    seriesUnit,
    segmentationType,
    ...lastPeriods,
  ],
  eventProperties: [
    PROJECT_ID_PARAMETER,
    event,
    { name: 'name', required: true, description: 'The property to segment by.', example: 'plan' },
    { name: 'values', description: 'A JSON array of the values to keep.', example: '["pro","free"]' },
    seriesUnit,
    segmentationType,
    ...lastPeriods,
    limit('The top values kept, default 255', MAX_SEGMENTATION_LIMIT),
  ],
  eventNames: [PROJECT_ID_PARAMETER, segmentationType, limit('How many names, default 255', 10_000)],
  topProperties: [
    PROJECT_ID_PARAMETER,
    { name: 'event', description: 'The event name; without it, the properties of every event.', example: 'Purchased' },
    limit('How many properties, default 10', 10_000),
  ],
  profileProperties: [PROJECT_ID_PARAMETER, limit('How many property names, default 255', 10_000)],
  revenue: [PROJECT_ID_PARAMETER, from, to, ...dayBuckets],
  propertyValues: [
    PROJECT_ID_PARAMETER,
    event,
    { name: 'name', required: true, description: 'The property.', example: 'plan' },
    limit('How many values, default 255', 10_000),
  ],
  stream: STREAM_PARAMETERS,
  flows: FLOWS_PARAMETERS,
} satisfies Record<string, readonly QueryParameterDoc[]>;

import { EventExpression, optionalEventExpression } from '../expressions/query-expressions';
import { dayRange, QueryParams } from '../http/query-params';
import { TimeZone } from '../time/time-zone';

export const FLOW_DIRECTIONS = ['after', 'before'] as const;
export type FlowDirection = (typeof FLOW_DIRECTIONS)[number];

export const MAX_FLOW_STEPS = 5;
export const DEFAULT_FLOW_STEPS = 3;
export const DEFAULT_FLOW_LIMIT = 10;
export const MAX_FLOW_LIMIT = 100;

/** A flows query (docs/queries.md, "Flows"): the paths people take from an anchor event, forwards or backwards. */
export interface FlowsSpec {
  /** The anchor event's name. */
  event: string;
  direction: FlowDirection;
  /** Events followed from the anchor, 1 to MAX_FLOW_STEPS. */
  steps: number;
  /** Days of the project's time zone (docs/queries.md, "Time zone"). */
  fromDay: number;
  toDay: number;
  zone: TimeZone;
  /** Which anchor events count: only the anchor is filtered, never the steps. */
  where?: EventExpression;
  /** How many paths are listed, the most taken first. */
  limit: number;
}

export function parseFlowsQuery(params: QueryParams): FlowsSpec {
  return {
    event: params.requiredText('event'),
    direction: params.oneOf('direction', FLOW_DIRECTIONS) ?? 'after',
    steps: params.integer('steps', 1, MAX_FLOW_STEPS) ?? DEFAULT_FLOW_STEPS,
    ...dayRange(params),
    where: optionalEventExpression('where', params.text('where')),
    limit: params.integer('limit', 1, MAX_FLOW_LIMIT) ?? DEFAULT_FLOW_LIMIT,
  };
}

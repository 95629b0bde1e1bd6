import { checkOptionalExpression } from './expression-check';
import { optional } from './optional';
import { invalidDefinition } from './reports-error';

export const RETENTION_TYPES = ['birth', 'compounded'] as const;
export type RetentionType = (typeof RETENTION_TYPES)[number];
export const RETENTION_UNITS = ['day', 'week', 'month'] as const;
export type RetentionUnit = (typeof RETENTION_UNITS)[number];
/** The query API's own cap on `interval_count`. */
export const MAX_RETENTION_INTERVALS = 1000;

/**
 * A saved retention report: who is in a cohort and what counts as a return, by what unit and how many
 * intervals. Like a funnel it holds no dates: the query (or the board showing it) gives them.
 */
export interface RetentionDefinition {
  retention_type: RetentionType;
  /** Birth retention's cohort event (required there); compounded retention has none. */
  born_event?: string;
  /** The returning event; any event when absent. */
  event?: string;
  born_where?: string;
  where?: string;
  unit: RetentionUnit;
  interval_count: number;
}

/** The definition as stored: validated, expressions compiled once, empty optional fields dropped. */
export function validateRetentionDefinition(definition: RetentionDefinition): RetentionDefinition {
  const { retention_type: type, unit, interval_count: intervals } = definition;
  if (!RETENTION_TYPES.includes(type)) throw invalidDefinition(`retention_type must be birth or compounded`);
  if (!RETENTION_UNITS.includes(unit)) throw invalidDefinition('unit must be day, week or month');
  if (!Number.isInteger(intervals) || intervals < 1 || intervals > MAX_RETENTION_INTERVALS)
    throw invalidDefinition(`interval_count must be a whole number from 1 to ${MAX_RETENTION_INTERVALS}`);
  if (type === 'birth' && !definition.born_event)
    throw invalidDefinition('born_event is required for birth retention: the event that puts a user in a cohort');
  if (type === 'compounded' && definition.born_event)
    throw invalidDefinition('born_event is for birth retention only: compounded cohorts are born at event');
  return {
    retention_type: type,
    ...optional('born_event', definition.born_event || undefined),
    ...optional('event', definition.event || undefined),
    ...optional('born_where', checkOptionalExpression('born_where', definition.born_where, 'events')),
    ...optional('where', checkOptionalExpression('where', definition.where, 'events')),
    unit,
    interval_count: intervals,
  };
}

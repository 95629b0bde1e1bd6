import { EventExpression, optionalEventExpression } from '../expressions/query-expressions';
import { dateBuckets, dayRange, QueryParams } from '../http/query-params';
import { invalidParameter } from '../query-error';
import { DateBuckets } from '../time/buckets';
import { TimeZone } from '../time/time-zone';

export const MAX_INTERVAL_COUNT = 1000;

/**
 * A retention query. Birth: a user is born at their first `born_event` (matching `born_where`) over
 * all their data, counted when that lies in the range. Compounded: each bucket's cohort is the
 * users doing `event` (matching `born_where` and `where`: it is one event) in it, born at their
 * first such occurrence there. Returns are `event` (any event when absent) matching `where`, the
 * birth occurrence excepted.
 */
export interface RetentionSpec {
  type: 'birth' | 'compounded';
  bornEvent?: string;
  event?: string;
  bornWhere?: EventExpression;
  where?: EventExpression;
  fromDay: number;
  toDay: number;
  /** The project's time zone: cohort days and intervals are measured on its clocks. */
  zone: TimeZone;
  /** Cohort buckets; they also give the interval length (N days, 7 days, a calendar month). */
  buckets: DateBuckets;
  intervalCount: number;
  unbounded: boolean;
}

export function parseRetentionQuery(params: QueryParams): RetentionSpec {
  const type = params.oneOf('retention_type', ['birth', 'compounded'] as const) ?? 'birth';
  const bornEvent = params.text('born_event');
  if (type === 'birth' && bornEvent === undefined) throw invalidParameter('born_event is required for birth retention');
  if (params.text('on') !== undefined) throw invalidParameter('on is not supported by retention queries yet');
  return {
    type,
    bornEvent: type === 'birth' ? bornEvent : undefined,
    event: params.text('event'),
    bornWhere: optionalEventExpression('born_where', params.text('born_where')),
    where: optionalEventExpression('where', params.text('where')),
    ...dayRange(params),
    buckets: dateBuckets(params),
    intervalCount: params.integer('interval_count', 0, MAX_INTERVAL_COUNT) ?? 1,
    unbounded: params.flag('unbounded_retention'),
  };
}

import { resolvedEventsSql } from '@analytics/event-store';
import { chCompiled, chSql, ProjectScope, renderChSql } from '@analytics/tenancy';
import { bucketDaySql, bucketParams } from '../clickhouse/bucket-sql';
import { BoundQuery } from '../clickhouse/query-runner';
import { rangeParams, wallMsSql } from '../clickhouse/wall-time-sql';
import { EventExpression, keepsEvent, optionalEventExpression, whereSql } from '../expressions/query-expressions';
import { dayRange, QueryParams } from '../http/query-params';
import { QueryEvent } from '../reference/query-event';
import { bucketKeys, bucketOf, DateBuckets } from '../time/buckets';
import { TimeZone } from '../time/time-zone';
import { addMonths, DAY_MS, dayOf, formatDay, HOUR_MS } from '../time/utc-days';

/**
 * /retention/addiction (the frequency report): per period (`unit`) of the range, counts[k] is the
 * number of users who did `event` in at least k+1 distinct `addiction_unit`s (hours or days) of it.
 * The array has one entry per addiction unit of the whole calendar period; events outside the range
 * are not counted. Periods, hours and days are the project's zone's (its clocks' hours: a repeated
 * hour is one).
 */
export interface AddictionSpec {
  event?: string;
  where?: EventExpression;
  fromDay: number;
  toDay: number;
  zone: TimeZone;
  unit: Exclude<DateBuckets['kind'], 'days'> | 'day';
  addictionUnit: 'hour' | 'day';
}

export interface AddictionRow {
  period: number;
  units: number;
  users: number;
}

export function parseAddictionQuery(params: QueryParams): AddictionSpec {
  return {
    event: params.text('event'),
    where: optionalEventExpression('where', params.text('where')),
    ...dayRange(params),
    unit: params.oneOf('unit', ['day', 'week', 'month'] as const) ?? 'day',
    addictionUnit: params.oneOf('addiction_unit', ['hour', 'day'] as const) ?? 'day',
  };
}

const periodBuckets = (spec: AddictionSpec): DateBuckets =>
  spec.unit === 'day' ? { kind: 'days', days: 1 } : { kind: spec.unit };

export function addictionSql(scope: ProjectScope, spec: AddictionSpec, resolve = true): BoundQuery {
  const where = spec.where ? whereSql(spec.where, 'w') : { sql: '1', params: {} };
  const unitOf = spec.addictionUnit === 'hour' ? `intDiv(t, ${HOUR_MS})` : `intDiv(t, ${DAY_MS})`;
  const sql = chSql`SELECT period, units, count() AS users FROM (
      SELECT distinct_id, ${chCompiled(bucketDaySql('t', periodBuckets(spec)))} AS period, uniqExact(${chCompiled(unitOf)}) AS units
      FROM (SELECT distinct_id, ${chCompiled(wallMsSql('toUnixTimestamp64Milli(time)', spec.zone))} AS t FROM ${resolvedEventsSql(scope, resolve)}
        WHERE ${scope}${spec.event !== undefined ? chSql` AND event = {event:String}` : chSql``}
          AND time >= fromUnixTimestamp64Milli({fromMs:Int64}, 'UTC') AND time < fromUnixTimestamp64Milli({toEndMs:Int64}, 'UTC') AND ${chCompiled(where.sql, where.params)})
      GROUP BY distinct_id, period)
    GROUP BY period, units`;
  return renderChSql(sql, {
    params: {
      ...(spec.event !== undefined && { event: spec.event }),
      ...bucketParams(periodBuckets(spec), spec.fromDay),
      ...rangeParams(spec),
    },
  });
}

/** How many addiction units the calendar period starting on `day` holds. */
function unitsInPeriod(spec: AddictionSpec, day: number): number {
  const days =
    spec.unit === 'day' ? 1 : spec.unit === 'week' ? 7 : (addMonths(day * DAY_MS, 1) - day * DAY_MS) / DAY_MS;
  return spec.addictionUnit === 'hour' ? days * 24 : days;
}

export function addictionResult(
  spec: AddictionSpec,
  rows: readonly AddictionRow[],
): { data: Record<string, number[]> } {
  const data: Record<string, number[]> = {};
  for (const period of bucketKeys(spec.fromDay, spec.toDay, periodBuckets(spec))) {
    const mine = rows.filter((row) => Number(row.period) === period);
    data[formatDay(period)] = Array.from({ length: unitsInPeriod(spec, period) }, (_, k) =>
      mine.filter((row) => Number(row.units) >= k + 1).reduce((sum, row) => sum + Number(row.users), 0),
    );
  }
  return { data };
}

/** The reference twin, for the tests: users per period and number of distinct addiction units. */
export function referenceAddiction(events: readonly QueryEvent[], spec: AddictionSpec): AddictionRow[] {
  const units = new Map<string, { period: number; units: Set<number> }>();
  const { fromMs, toEndMs } = spec.zone.rangeMs(spec.fromDay, spec.toDay);
  for (const event of events) {
    if ((spec.event !== undefined && event.event !== spec.event) || event.timeMs < fromMs || event.timeMs >= toEndMs)
      continue;
    if (!keepsEvent([spec.where], event)) continue;
    const wall = spec.zone.wallMs(event.timeMs);
    const period = bucketOf(dayOf(wall), periodBuckets(spec), spec.fromDay);
    const key = `${event.distinctId}\u0000${period}`;
    const user = units.get(key) ?? { period, units: new Set<number>() };
    user.units.add(Math.floor(wall / (spec.addictionUnit === 'hour' ? HOUR_MS : DAY_MS)));
    units.set(key, user);
  }
  const rows = new Map<string, AddictionRow>();
  for (const { period, units: seen } of units.values()) {
    const row = rows.get(`${period}|${seen.size}`) ?? { period, units: seen.size, users: 0 };
    row.users += 1;
    rows.set(`${period}|${seen.size}`, row);
  }
  return [...rows.values()];
}

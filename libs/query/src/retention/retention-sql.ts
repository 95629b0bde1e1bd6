import { resolvedEventsSql } from '@analytics/event-store';
import { chCompiled, chSql, ChSql, ProjectScope, renderChSql } from '@analytics/tenancy';
import { bucketDaySql, bucketParams } from '../clickhouse/bucket-sql';
import { BoundQuery } from '../clickhouse/query-runner';
import { rangeParams, wallMsSql } from '../clickhouse/wall-time-sql';
import { whereSql } from '../expressions/query-expressions';
import { DateBuckets } from '../time/buckets';
import { TimeZone } from '../time/time-zone';
import { fixedIntervalMs, returnsEndMs } from './retention-intervals';
import { RetentionSpec } from './retention-spec';

/**
 * Retention in one query: per user the birth candidates (cohort-defining events, keyed by time
 * then insert id and event name) and the returns; per birth the distinct intervals returned in,
 * summed per cohort with sumMap. Each birth occurrence carries its key, so it is never its own return.
 */

export interface RetentionRow {
  cohort: number;
  first: number;
  /** sumMap results: [interval indexes, users]. */
  returned: [number[], number[]];
  last_returned: [number[], number[]];
}

const condition = (expression: RetentionSpec['where'], prefix: string) =>
  expression ? whereSql(expression, prefix) : { sql: '1', params: {} };

/**
 * The interval index of `ms` after `birth` (both epoch milliseconds), in SQL: the twin of
 * `intervalIndex`, on the zone's wall times (outside UTC clamped at 0, for the hour clocks repeat).
 */
function intervalIndexSql(birth: string, ms: string, buckets: DateBuckets, zone: TimeZone): string {
  const clamped = (index: string) => (zone.isUtc ? index : `greatest(0, ${index})`);
  const [wall, bornWall] = [wallMsSql(ms, zone), wallMsSql(birth, zone)];
  if (buckets.kind !== 'month') return clamped(`intDiv(${wall} - ${bornWall}, {intervalMs:Int64})`);
  const at = `fromUnixTimestamp64Milli(${wall}, 'UTC')`;
  const born = `fromUnixTimestamp64Milli(${bornWall}, 'UTC')`;
  const months = `(toYear(${at}) * 12 + toMonth(${at}) - toYear(${born}) * 12 - toMonth(${born}))`;
  return clamped(`(${months} - (addMonths(${born}, ${months}) > ${at}))`);
}

/**
 * Whether a return can be the birth occurrence itself (same event name possible): only then do
 * births and returns carry the occurrence key (insert id and name), which costs a string per event.
 */
function keyed(spec: RetentionSpec): boolean {
  return spec.type === 'compounded' || spec.event === undefined || spec.event === spec.bornEvent;
}

function eventsSql(scope: ProjectScope, spec: RetentionSpec, resolve: boolean): ChSql {
  const bornWhere = condition(spec.bornWhere, 'bw');
  const where = condition(spec.where, 'w');
  // Compounded: the cohort event and the return event are one event, so `where` filters both.
  const bornFilter = spec.type === 'compounded' ? `${bornWhere.sql} AND ${where.sql}` : bornWhere.sql;
  const bornName =
    spec.type === 'birth'
      ? 'event = {bornEvent:String}'
      : spec.event !== undefined
        ? 'event = {returnEvent:String}'
        : '1';
  // Birth looks at all of a user's history; a compounded cohort only at the range.
  const bornTime =
    spec.type === 'birth'
      ? "time < fromUnixTimestamp64Milli({toEndMs:Int64}, 'UTC')"
      : "time >= fromUnixTimestamp64Milli({fromMs:Int64}, 'UTC') AND time < fromUnixTimestamp64Milli({toEndMs:Int64}, 'UTC')";
  const returnName = spec.event !== undefined ? 'event = {returnEvent:String}' : '1';
  const key = keyed(spec) ? "if(isBorn, concat(insert_id, '\\0', event), NULL)" : "CAST(NULL, 'Nullable(String)')";
  const columns = chCompiled(
    `distinct_id, toUnixTimestamp64Milli(time) AS t,
      ${bornName} AND ${bornTime} AND ${bornFilter} AS isBorn,
      ${returnName} AND time >= fromUnixTimestamp64Milli({fromMs:Int64}, 'UTC') AND time < fromUnixTimestamp64Milli({returnsEndMs:Int64}, 'UTC') AND ${where.sql} AS isReturn,
      ${key} AS bornKey`,
    { ...bornWhere.params, ...where.params },
  );
  return chSql`SELECT ${columns}
    FROM ${resolvedEventsSql(scope, resolve)}
    WHERE ${scope} AND (isBorn OR isReturn)`;
}

/** The user's births: the first birth candidate overall (birth), or the first in each bucket (compounded). */
function birthsSql(spec: RetentionSpec): string {
  if (spec.type === 'birth') {
    const first = keyed(spec) ? 'minIf((t, assumeNotNull(bornKey)), isBorn)' : "(minIf(t, isBorn), '')";
    return `if(countIf(isBorn) > 0, [${first}], CAST([], 'Array(Tuple(Int64, String))')) AS births`;
  }
  const bucket = (ms: string) => bucketDaySql(wallMsSql(ms, spec.zone), spec.buckets);
  return `arraySort(groupArrayIf((t, assumeNotNull(bornKey)), isBorn)) AS candidates,
      arrayFilter((xc, xk) -> xk = 1 OR ${bucket('xc.1')} != ${bucket('candidates[xk - 1].1')}, candidates, arrayEnumerate(candidates)) AS births`;
}

/** The user's returns, with the occurrence key when a return may be a birth. */
function returnsSql(spec: RetentionSpec): { column: string; time: string; notBirth: string } {
  if (!keyed(spec)) return { column: 'groupArrayIf(t, isReturn) AS returns', time: 'xr', notBirth: '1' };
  return {
    column: 'groupArrayIf((t, bornKey), isReturn) AS returns',
    time: 'xr.1',
    notBirth: 'NOT (xr.1 = birth.1 AND ifNull(xr.2 = birth.2, 0))',
  };
}

/** `resolve`: whether to resolve ids through identity_map (QueryRunner.resolvesIdentities). */
export function retentionSql(scope: ProjectScope, spec: RetentionSpec, resolve = true): BoundQuery {
  const events = eventsSql(scope, spec, resolve);
  const returns = returnsSql(spec);
  const index = intervalIndexSql('birth.1', returns.time, spec.buckets, spec.zone);
  // The latest interval returned in, for unbounded counts.
  const last = spec.unbounded
    ? "sumMap(if(empty(intervals), CAST([], 'Array(Int64)'), [arrayMax(intervals)]), if(empty(intervals), CAST([], 'Array(UInt64)'), [toUInt64(1)]))"
    : "(CAST([], 'Array(Int64)'), CAST([], 'Array(UInt64)'))";
  const sql = chSql`SELECT cohort, count() AS first,
      sumMap(intervals, arrayResize(CAST([], 'Array(UInt64)'), length(intervals), toUInt64(1))) AS returned,
      ${chCompiled(last)} AS last_returned
    FROM (
      SELECT ${chCompiled(bucketDaySql(wallMsSql('birth.1', spec.zone), spec.buckets))} AS cohort,
        arrayDistinct(arrayFilter(xi -> xi <= {intervalCount:Int64},
          ${chCompiled(`arrayMap(xr -> toInt64(${index}), arrayFilter(xr -> ${returns.time} >= birth.1 AND ${returns.notBirth}, returns))`)})) AS intervals
      FROM (
        SELECT ${chCompiled(`${birthsSql(spec)}, ${returns.column}`)}
        FROM (${events})
        GROUP BY distinct_id
      )
      ARRAY JOIN births AS birth
      WHERE birth.1 >= {fromMs:Int64}
    )
    GROUP BY cohort`;
  const bounds = rangeParams(spec);
  return renderChSql(sql, {
    params: {
      ...bucketParams(spec.buckets, spec.fromDay),
      ...(spec.buckets.kind !== 'month' && { intervalMs: fixedIntervalMs(spec.buckets) }),
      ...(spec.type === 'birth' && { bornEvent: spec.bornEvent }),
      ...(spec.event !== undefined && { returnEvent: spec.event }),
      ...bounds,
      returnsEndMs: returnsEndMs(bounds.toEndMs, spec.buckets, spec.intervalCount, spec.zone),
      intervalCount: spec.intervalCount,
    },
  });
}

import { userEventsSql } from '@analytics/identity';
import { BoundQuery } from '../clickhouse/query-runner';
import { seriesKeySql } from '../clickhouse/series-sql';
import { isNumberSql, numberOrZeroSql, segmentSql, whereSql } from '../expressions/query-expressions';
import { DAY_MS } from '../time/utc-days';
import { propertyMathSql } from './insights-math';
import { InsightsMetricSpec, InsightsSpec } from './insights-spec';
import { OVERALL } from './insights-tally';

export interface InsightsRow {
  metric: number;
  key: number;
  segment: string;
  value: number;
  rank: number;
}

/**
 * The events a metric reads and what its unique count counts (`user`). Only unique counts read
 * users: other maths skip identity resolution (docs/identity.md).
 */
function metricSource(metric: InsightsMetricSpec, resolve: boolean, lookup: boolean, expressions: string[]): { events: string; user: string } {
  return userEventsSql('project', resolve && metric.math === 'unique', lookup, expressions);
}

/** One metric's events in range with their period key, user, numeric value and segment. */
function metricEventsSql(spec: InsightsSpec, metric: InsightsMetricSpec, i: number, resolve: boolean, lookup: boolean): BoundQuery {
  const where = metric.where ? whereSql(metric.where, `m${i}w`) : { sql: '1', params: {} };
  const value = metric.property ? numberOrZeroSql(metric.property, `m${i}v`) : { sql: '0', params: {} };
  const isNumber = metric.property ? isNumberSql(metric.property, `m${i}n`) : { sql: '0', params: {} };
  const segment = spec.on ? segmentSql(spec.on, `m${i}s`) : { sql: 'NULL', params: {} };
  const { events, user } = metricSource(metric, resolve, lookup, [where.sql, value.sql, isNumber.sql, segment.sql]);
  const sql = `SELECT ${seriesKeySql('toUnixTimestamp64Milli(time)', spec.unit)} AS key, ${user} AS user, ${value.sql} AS v, ${isNumber.sql} AS isNumber, ${segment.sql} AS seg
    FROM ${events}
    WHERE project_id = {project:UInt32} AND event = {event${i}:String}
      AND time >= fromUnixTimestamp64Milli({fromMs:Int64}, 'UTC') AND time < fromUnixTimestamp64Milli({toEndMs:Int64}, 'UTC') AND ${where.sql}`;
  return { sql, params: { ...where.params, ...value.params, ...isNumber.params, ...segment.params, [`event${i}`]: metric.event } };
}

/** A metric's overall series and, with `on`, its `limit` segments with the most events (ties by value). */
function metricSql(spec: InsightsSpec, metric: InsightsMetricSpec, i: number, resolve: boolean, lookup: boolean): BoundQuery {
  const events = metricEventsSql(spec, metric, i, resolve, lookup);
  const math = propertyMathSql(metric.math);
  const overall = `SELECT toUInt32(${i}) AS metric, key, '${OVERALL}' AS segment, ${math} AS value, toUInt64(0) AS rank FROM (${events.sql}) GROUP BY key`;
  if (!spec.on) return { sql: overall, params: events.params };
  const segments = `SELECT metric, key, segment, value, rank FROM (
      SELECT *, dense_rank() OVER (ORDER BY total DESC, segment ASC) AS rank FROM (
        SELECT *, sum(events) OVER (PARTITION BY segment) AS total FROM (
          SELECT toUInt32(${i}) AS metric, key, assumeNotNull(seg) AS segment, ${math} AS value, count() AS events
          FROM (${events.sql}) WHERE isNotNull(seg) GROUP BY key, segment)))
    WHERE rank <= {limit:UInt32}`;
  return { sql: `${overall} UNION ALL ${segments}`, params: events.params };
}

/**
 * `resolve`: whether to resolve ids (QueryRunner.resolvesIdentities); `lookup`: through
 * identity_lookup rather than the join with identity_map (QueryRunner.identityLookup).
 */
export function insightsSql(projectId: number, spec: InsightsSpec, resolve = true, lookup = true): BoundQuery {
  const metrics = spec.metrics.map((metric, i) => metricSql(spec, metric, i, resolve, lookup));
  return {
    sql: metrics.map((m) => m.sql).join('\nUNION ALL\n'),
    params: {
      ...(Object.assign({}, ...metrics.map((m) => m.params)) as BoundQuery['params']),
      project: projectId,
      fromMs: spec.fromDay * DAY_MS,
      toEndMs: (spec.toDay + 1) * DAY_MS,
      ...(spec.on && { limit: spec.limit }),
    },
  };
}

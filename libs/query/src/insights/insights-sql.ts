import { userEventsSql } from '@analytics/event-store';
import { chCompiled, chJoin, chSql, ChSql, ProjectScope, renderChSql } from '@analytics/tenancy';
import { BoundQuery } from '../clickhouse/query-runner';
import { seriesKeySql } from '../clickhouse/series-sql';
import { rangeParams, wallMsSql } from '../clickhouse/wall-time-sql';
import { isNumberSql, numberOrZeroSql, readsProfiles, segmentSql, whereSql } from '../expressions/query-expressions';
import { eventsWithProfilesSql } from '../clickhouse/events-with-profiles-sql';
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
 * users: other maths skip identity resolution (docs/identity.md), unless a profile property is read,
 * whose profile belongs to the person's canonical id.
 */
function metricSource(
  scope: ProjectScope,
  metric: InsightsMetricSpec,
  resolve: boolean,
  lookup: boolean,
  expressions: string[],
  profiles: ChSql | undefined,
): { events: ChSql; user: string } {
  if (profiles) return eventsWithProfilesSql(scope, resolve, profiles);
  return userEventsSql(scope, resolve && metric.math === 'unique', lookup, expressions);
}

/** One metric's events in range with their period key, user, numeric value and segment. */
function metricEventsSql(
  scope: ProjectScope,
  spec: InsightsSpec,
  metric: InsightsMetricSpec,
  i: number,
  resolve: boolean,
  lookup: boolean,
): ChSql {
  const sources = { profiles: readsProfiles([metric.where, metric.property, spec.on]) };
  const where = metric.where ? whereSql(metric.where, `m${i}w`, sources) : { sql: '1', params: {} };
  const value = metric.property ? numberOrZeroSql(metric.property, `m${i}v`, sources) : { sql: '0', params: {} };
  const isNumber = metric.property ? isNumberSql(metric.property, `m${i}n`, sources) : { sql: '0', params: {} };
  const segment = spec.on ? segmentSql(spec.on, `m${i}s`, sources) : { sql: 'NULL', params: {} };
  const event = chCompiled(`{event${i}:String}`, { [`event${i}`]: metric.event });
  const inRange = chSql`event = ${event}
      AND time >= fromUnixTimestamp64Milli({fromMs:Int64}, 'UTC') AND time < fromUnixTimestamp64Milli({toEndMs:Int64}, 'UTC')`;
  const { events, user } = metricSource(
    scope,
    metric,
    resolve,
    lookup,
    [where.sql, value.sql, isNumber.sql, segment.sql],
    sources.profiles ? inRange : undefined,
  );
  const columns = chCompiled(
    `${seriesKeySql(wallMsSql('toUnixTimestamp64Milli(time)', spec.zone), spec.unit)} AS key, ${user} AS user, ${value.sql} AS v, ${isNumber.sql} AS isNumber, ${segment.sql} AS seg`,
    {
      ...value.params,
      ...isNumber.params,
      ...segment.params,
    },
  );
  return chSql`SELECT ${columns}
    FROM ${events}
    WHERE ${scope} AND ${inRange} AND ${chCompiled(where.sql, where.params)}`;
}

/** A metric's overall series and, with `on`, its `limit` segments with the most events (ties by value). */
function metricSql(
  scope: ProjectScope,
  spec: InsightsSpec,
  metric: InsightsMetricSpec,
  i: number,
  resolve: boolean,
  lookup: boolean,
): ChSql {
  const events = metricEventsSql(scope, spec, metric, i, resolve, lookup);
  const metricColumn = chCompiled(`toUInt32(${i}) AS metric`);
  const math = chCompiled(propertyMathSql(metric.math));
  const overall = chSql`SELECT ${metricColumn}, key, ${chCompiled(`'${OVERALL}'`)} AS segment, ${math} AS value, toUInt64(0) AS rank FROM (${events}) GROUP BY key`;
  if (!spec.on) return overall;
  const segments = chSql`SELECT metric, key, segment, value, rank FROM (
      SELECT *, dense_rank() OVER (ORDER BY total DESC, segment ASC) AS rank FROM (
        SELECT *, sum(events) OVER (PARTITION BY segment) AS total FROM (
          SELECT ${metricColumn}, key, assumeNotNull(seg) AS segment, ${math} AS value, count() AS events
          FROM (${events}) WHERE isNotNull(seg) GROUP BY key, segment)))
    WHERE rank <= {limit:UInt32}`;
  return chSql`${overall} UNION ALL ${segments}`;
}

/**
 * `resolve`: whether to resolve ids (QueryRunner.resolvesIdentities); `lookup`: through
 * identity_lookup rather than the join with identity_map (QueryRunner.identityLookup).
 */
export function insightsSql(scope: ProjectScope, spec: InsightsSpec, resolve = true, lookup = true): BoundQuery {
  const metrics = spec.metrics.map((metric, i) => metricSql(scope, spec, metric, i, resolve, lookup));
  return renderChSql(chJoin(metrics, chSql`\nUNION ALL\n`), {
    params: {
      ...rangeParams(spec),
      ...(spec.on && { limit: spec.limit }),
    },
  });
}

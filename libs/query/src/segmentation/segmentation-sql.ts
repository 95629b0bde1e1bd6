import { resolvedEventsSql } from '@analytics/event-store';
import { chCompiled, chSql, ProjectScope, renderChSql } from '@analytics/tenancy';
import { BoundQuery } from '../clickhouse/query-runner';
import { seriesKeySql } from '../clickhouse/series-sql';
import { rangeParams, wallMsSql } from '../clickhouse/wall-time-sql';
import { readsProfiles, segmentSql, whereSql } from '../expressions/query-expressions';
import { eventsWithProfilesSql } from '../clickhouse/events-with-profiles-sql';
import { SegmentationSpec } from './segmentation-spec';

export interface SegmentationRow {
  key: number;
  series: string;
  events: number;
  users: number;
  rank: number;
}

/**
 * Events and distinct users per series and period; series ranked by their events over the range
 * (ties by value) and cut at `limit` in ClickHouse, so a high-cardinality `on` never floods the service.
 */
/** `resolve`: whether to resolve ids through identity_map (QueryRunner.resolvesIdentities). */
export function segmentationSql(scope: ProjectScope, spec: SegmentationSpec, resolve = true): BoundQuery {
  const sources = { profiles: readsProfiles([spec.where, spec.on]) };
  const where = spec.where ? whereSql(spec.where, 'w', sources) : { sql: '1', params: {} };
  const series = spec.on ? segmentSql(spec.on, 'on', sources) : { sql: 'event', params: {} };
  const seriesSql = chCompiled(series.sql, series.params);
  const inRange = chSql`event IN {events:Array(String)}
            AND time >= fromUnixTimestamp64Milli({fromMs:Int64}, 'UTC') AND time < fromUnixTimestamp64Milli({toEndMs:Int64}, 'UTC')`;
  const events = sources.profiles
    ? eventsWithProfilesSql(scope, resolve, inRange).events
    : resolvedEventsSql(scope, resolve);
  const sql = chSql`SELECT key, series, events, users, rank FROM (
      SELECT *, dense_rank() OVER (ORDER BY total DESC, series ASC) AS rank
      FROM (
        SELECT *, sum(events) OVER (PARTITION BY series) AS total
        FROM (
          SELECT ${chCompiled(seriesKeySql(wallMsSql('toUnixTimestamp64Milli(time)', spec.zone), spec.unit))} AS key, assumeNotNull(${seriesSql}) AS series,
            count() AS events, uniqExact(distinct_id) AS users
          FROM ${events}
          WHERE ${scope} AND ${inRange}
            AND ${chCompiled(where.sql, where.params)} AND isNotNull(${seriesSql})${spec.values ? chSql` AND ${seriesSql} IN {values:Array(String)}` : chSql``}
          GROUP BY key, series
        )
      )
    )
    WHERE rank <= {limit:UInt32}`;
  return renderChSql(sql, {
    params: {
      ...(spec.values && { values: spec.values }),
      events: spec.events,
      ...rangeParams(spec),
      limit: spec.limit,
    },
  });
}

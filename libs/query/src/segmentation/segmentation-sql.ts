import { resolvedEventsSql } from '@analytics/identity';
import { BoundQuery } from '../clickhouse/query-runner';
import { seriesKeySql } from '../clickhouse/series-sql';
import { segmentSql, whereSql } from '../expressions/query-expressions';
import { DAY_MS } from '../time/utc-days';
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
export function segmentationSql(projectId: number, spec: SegmentationSpec, resolve = true): BoundQuery {
  const where = spec.where ? whereSql(spec.where, 'w') : { sql: '1', params: {} };
  const series = spec.on ? segmentSql(spec.on, 'on') : { sql: 'event', params: {} };
  const sql = `SELECT key, series, events, users, rank FROM (
      SELECT *, dense_rank() OVER (ORDER BY total DESC, series ASC) AS rank
      FROM (
        SELECT *, sum(events) OVER (PARTITION BY series) AS total
        FROM (
          SELECT ${seriesKeySql('toUnixTimestamp64Milli(time)', spec.unit)} AS key, assumeNotNull(${series.sql}) AS series,
            count() AS events, uniqExact(distinct_id) AS users
          FROM ${resolvedEventsSql('project', resolve)}
          WHERE project_id = {project:UInt32} AND event IN {events:Array(String)}
            AND time >= fromUnixTimestamp64Milli({fromMs:Int64}, 'UTC') AND time < fromUnixTimestamp64Milli({toEndMs:Int64}, 'UTC')
            AND ${where.sql} AND isNotNull(${series.sql})${spec.values ? ` AND ${series.sql} IN {values:Array(String)}` : ''}
          GROUP BY key, series
        )
      )
    )
    WHERE rank <= {limit:UInt32}`;
  return {
    sql,
    params: {
      ...where.params,
      ...series.params,
      ...(spec.values && { values: spec.values }),
      project: projectId,
      events: spec.events,
      fromMs: spec.fromDay * DAY_MS,
      toEndMs: (spec.toDay + 1) * DAY_MS,
      limit: spec.limit,
    },
  };
}

import { ClickHouseClient, EVENTS_TABLE } from '@analytics/clickhouse';
import { Inject, Injectable } from '@nestjs/common';
import { Readable } from 'node:stream';
import { ExportRequest } from './export-request';
import { exportedEventLineSql } from './exported-line';

/** Rows of one (event, day) pair: the unit the export is planned in (it is a prefix of the sort key). */
export interface ExportBucket {
  event: string;
  day: string;
  rows: number;
}

/** A slice of the export small enough to hold in memory: some whole buckets, or a hash share of a big one. */
export interface ExportPage {
  buckets: [string, string][];
  share?: { of: number; index: number };
  rows: number;
}

@Injectable()
export class ExportRepository {
  constructor(@Inject(ClickHouseClient) private readonly clickhouse: ClickHouseClient) {}

  private filter(projectId: number, request: ExportRequest): { sql: string; params: Record<string, unknown> } {
    const params: Record<string, unknown> = {
      project: projectId,
      from: `${request.fromDate} 00:00:00.000`,
      to: `${request.toDate} 23:59:59.999`,
    };
    let sql = "project_id = {project:UInt32} AND time >= {from:DateTime64(3, 'UTC')} AND time <= {to:DateTime64(3, 'UTC')}";
    if (request.events) {
      sql += ' AND event IN {events:Array(String)}';
      params.events = request.events;
    }
    if (request.where) {
      sql += ` AND ${request.where.sql}`;
      Object.assign(params, request.where.params);
    }
    return { sql, params };
  }

  /** Deduplicated row counts per (event, day), in sort-key order. */
  async buckets(projectId: number, request: ExportRequest, signal: AbortSignal): Promise<ExportBucket[]> {
    const { sql, params } = this.filter(projectId, request);
    const result = await this.clickhouse.query({
      query: `SELECT event, toString(toDate(time)) AS day, count() AS rows FROM ${EVENTS_TABLE} FINAL WHERE ${sql} GROUP BY event, day ORDER BY event, day`,
      query_params: params,
      format: 'JSONEachRow',
      abort_signal: signal,
    });
    return result.json<ExportBucket>();
  }

  /** The page's exported events as NDJSON bytes (a stream from a server; one buffer from chDB). */
  async page(projectId: number, request: ExportRequest, page: ExportPage, limit: number | undefined, signal: AbortSignal): Promise<Readable> {
    const { sql, params } = this.filter(projectId, request);
    // The event list prunes by the primary index; the keys pick the exact (event, day) pairs.
    let where = `${sql} AND event IN {pageEvents:Array(String)} AND concat(event, '|', toString(toDate(time))) IN {pageKeys:Array(String)}`;
    const pageParams: Record<string, unknown> = {
      ...params,
      pageEvents: [...new Set(page.buckets.map(([event]) => event))],
      pageKeys: page.buckets.map(([event, day]) => `${event}|${day}`),
    };
    if (page.share) {
      where += ' AND cityHash64(distinct_id) % {shares:UInt32} = {share:UInt32}';
      Object.assign(pageParams, { shares: page.share.of, share: page.share.index });
    }
    const result = await this.clickhouse.exec({
      query: `SELECT ${exportedEventLineSql(request.timeInMs)} FROM ${EVENTS_TABLE} FINAL WHERE ${where}${limit === undefined ? '' : ' LIMIT {limit:UInt32}'} FORMAT TabSeparatedRaw`,
      query_params: limit === undefined ? pageParams : { ...pageParams, limit },
      abort_signal: signal,
    });
    return result.stream;
  }
}

import { ClickHouseClient, ResultChunk, streamQuery } from '@analytics/clickhouse';
import { CompiledSql } from '@analytics/expression';
import { mergedIdExistsSql, resolvedEventsSql } from '@analytics/identity';
import { Inject, Injectable } from '@nestjs/common';
import { ExportRequest } from './export-request';
import { exportedEventLineSql } from './exported-line';

/** Rows of one (event, day) pair: the unit the export is planned in (it is a prefix of the sort key). */
export interface ExportBucket {
  event: string;
  day: string;
  rows: number;
  /** Stored properties bytes of those rows: the bulk of their exported lines. */
  bytes: number;
}

/** One query's worth of the export: some whole buckets, or a hash share of a big one. */
export interface ExportPage {
  buckets: [string, string][];
  share?: { of: number; index: number };
  rows: number;
  /** Estimated output bytes. */
  bytes: number;
  /** Whether ids are resolved through identity_map (the default): `plan` clears it until the project has a merged id. */
  resolve?: boolean;
  /** The `where` as planned (ids it compares `distinct_id` with resolved to their person's: export-filter.ts); none without one. */
  where?: CompiledSql;
}

/** Above this many events in a page, one range each would make a long OR; a key list is used instead. */
const MAX_RANGES = 32;

@Injectable()
export class ExportRepository {
  constructor(@Inject(ClickHouseClient) private readonly clickhouse: ClickHouseClient) {}

  private filter(projectId: number, request: ExportRequest, where: CompiledSql | undefined): { sql: string; params: Record<string, unknown> } {
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
    if (where) {
      sql += ` AND ${where.sql}`;
      Object.assign(params, where.params);
    }
    return { sql, params };
  }

  /**
   * Deduplicated row counts and stored sizes per (event, day), in sort-key order. `resolve`: the
   * filter reads `distinct_id`, so the rows are counted as the pages read them, with ids resolved
   * (a person's events sent under another id of hers are on other days); otherwise as stored, which
   * counts the same rows without the join.
   */
  async buckets(projectId: number, request: ExportRequest, where: CompiledSql | undefined, resolve: boolean, signal: AbortSignal): Promise<ExportBucket[]> {
    const { sql, params } = this.filter(projectId, request, where);
    const result = await this.clickhouse.query({
      query: `SELECT event, toString(toDate(time)) AS day, count() AS rows, sum(length(properties)) AS bytes FROM ${resolvedEventsSql('project', resolve)} WHERE ${sql} GROUP BY event, day ORDER BY event, day`,
      query_params: params,
      format: 'JSONEachRow',
      abort_signal: signal,
    });
    return result.json<ExportBucket>();
  }

  /** Whether the project has a merged id: until it has, pages read the events without the identity join. */
  async hasMergedIds(projectId: number, signal: AbortSignal): Promise<boolean> {
    const result = await this.clickhouse.query({ query: mergedIdExistsSql(), query_params: { project: projectId }, format: 'JSONEachRow', abort_signal: signal });
    return (await result.json()).length > 0;
  }

  /** The page's exported events as NDJSON, streamed as the engine produces it (see `streamQuery`). */
  page(projectId: number, request: ExportRequest, page: ExportPage, limit: number | undefined, signal: AbortSignal): AsyncIterable<ResultChunk> {
    const { sql, params } = this.filter(projectId, request, page.where);
    // A page holds consecutive (event, day) buckets, so per event it is one range of days: ranges on
    // the sort key's prefix, which the primary index prunes to the page's own granules.
    const days = new Map<string, { from: string; to: string }>();
    for (const [event, day] of page.buckets) {
      const range = days.get(event);
      if (!range) days.set(event, { from: day, to: day });
      else if (day > range.to) range.to = day;
      else if (day < range.from) range.from = day;
    }
    const pageParams: Record<string, unknown> = { ...params };
    let where: string;
    if (days.size <= MAX_RANGES) {
      const ranges = [...days].map(([event, { from, to }], index) => {
        Object.assign(pageParams, { [`pe${index}`]: event, [`pf${index}`]: from, [`pt${index}`]: to });
        return `(event = {pe${index}:String} AND toDate(time) BETWEEN {pf${index}:Date} AND {pt${index}:Date})`;
      });
      where = `${sql} AND (${ranges.join(' OR ')})`;
    } else {
      // Many small events: the event list still prunes, the keys pick the exact (event, day) pairs.
      where = `${sql} AND event IN {pageEvents:Array(String)} AND concat(event, '|', toString(toDate(time))) IN {pageKeys:Array(String)}`;
      Object.assign(pageParams, { pageEvents: [...days.keys()], pageKeys: page.buckets.map(([event, day]) => `${event}|${day}`) });
    }
    if (page.share) {
      where += ' AND cityHash64(distinct_id) % {shares:UInt32} = {share:UInt32}';
      Object.assign(pageParams, { shares: page.share.of, share: page.share.index });
    }
    const resolve = page.resolve ?? true;
    return streamQuery(this.clickhouse, {
      // Ids resolved to the person's canonical id (docs/identity.md); the buckets above count the same rows unresolved.
      query: `SELECT ${exportedEventLineSql(request.timeInMs, resolve)} FROM ${resolvedEventsSql('project', resolve)} WHERE ${where}${limit === undefined ? '' : ' LIMIT {limit:UInt32}'}`,
      query_params: limit === undefined ? pageParams : { ...pageParams, limit },
      format: 'TabSeparatedRaw',
      abort_signal: signal,
    });
  }
}

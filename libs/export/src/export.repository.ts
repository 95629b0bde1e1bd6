import { ClickHouseClient, ResultChunk, streamQuery } from '@analytics/clickhouse';
import { mergedIdExistsSql } from '@analytics/event-store';
import { CompiledSql } from '@analytics/expression';
import { ProjectScope, renderChSql } from '@analytics/tenancy';
import { Inject, Injectable } from '@nestjs/common';
import { ExportRequest } from './export-request';
import { exportBucketsSql, exportPageSql, ExportPage } from './export-sql';

/** Rows of one (event, day) pair: the unit the export is planned in (it is a prefix of the sort key). */
export interface ExportBucket {
  event: string;
  day: string;
  rows: number;
  /** Stored properties bytes of those rows: the bulk of their exported lines. */
  bytes: number;
}

@Injectable()
export class ExportRepository {
  constructor(@Inject(ClickHouseClient) private readonly clickhouse: ClickHouseClient) {}

  /** Deduplicated row counts and stored sizes per (event, day), in sort-key order (see exportBucketsSql). */
  async buckets(
    scope: ProjectScope,
    request: ExportRequest,
    where: CompiledSql | undefined,
    resolve: boolean,
    signal: AbortSignal,
  ): Promise<ExportBucket[]> {
    const { sql, params } = exportBucketsSql(scope, request, where, resolve);
    const result = await this.clickhouse.query({
      query: sql,
      query_params: params,
      format: 'JSONEachRow',
      abort_signal: signal,
    });
    return result.json<ExportBucket>();
  }

  /** Whether the project has a merged id: until it has, pages read the events without the identity join. */
  async hasMergedIds(scope: ProjectScope, signal: AbortSignal): Promise<boolean> {
    const { sql, params } = renderChSql(mergedIdExistsSql(scope));
    const result = await this.clickhouse.query({
      query: sql,
      query_params: params,
      format: 'JSONEachRow',
      abort_signal: signal,
    });
    return (await result.json()).length > 0;
  }

  /** The page's exported events as NDJSON, streamed as the engine produces it (see `streamQuery`). */
  page(
    scope: ProjectScope,
    request: ExportRequest,
    page: ExportPage,
    limit: number | undefined,
    signal: AbortSignal,
  ): AsyncIterable<ResultChunk> {
    const { sql, params } = exportPageSql(scope, request, page, limit);
    return streamQuery(this.clickhouse, {
      query: sql,
      query_params: params,
      format: 'TabSeparatedRaw',
      abort_signal: signal,
    });
  }
}

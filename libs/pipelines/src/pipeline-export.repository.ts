import { ClickHouseClient } from '@analytics/clickhouse';
import { ChBoundQuery, ProjectScope } from '@analytics/tenancy';
import { Inject, Injectable } from '@nestjs/common';
import { DestinationAccess } from './destination';
import { Pipeline } from './pipeline-definition';
import {
  peopleCountSql,
  windowEventNamesSql,
  windowFingerprintsSql,
  writeEventsSql,
  writePeopleSql,
  writeTextSql,
} from './pipeline-export-sql';
import { PipelineWindow } from './pipeline-windows';

/** What a window holds in ClickHouse: rows and the latest ingestion time, which sync compares with what was written. */
export interface WindowFingerprint {
  rows: number;
  fingerprint: string;
}

/**
 * The window's data as ClickHouse writes it into the destination (`INSERT INTO FUNCTION s3(…)`):
 * deduplicated rows (`FINAL`), gzip JSONEachRow in the raw export's line format or typed Parquet.
 * Node passes URLs and keys as bound parameters and never touches a row.
 */
@Injectable()
export class PipelineExportRepository {
  constructor(@Inject(ClickHouseClient) private readonly clickhouse: ClickHouseClient) {}

  private async command({ sql, params }: ChBoundQuery, signal?: AbortSignal): Promise<void> {
    await this.clickhouse.command({ query: sql, query_params: params, abort_signal: signal });
  }

  private async rows<T>({ sql, params }: ChBoundQuery, signal?: AbortSignal): Promise<T[]> {
    const result = await this.clickhouse.query({
      query: sql,
      query_params: params,
      format: 'JSONEachRow',
      abort_signal: signal,
    });
    return result.json<T>();
  }

  /** Distinct event names of the window, for multischema's one table per event. */
  async eventNames(scope: ProjectScope, window: PipelineWindow, signal?: AbortSignal): Promise<string[]> {
    const rows = await this.rows<{ event: string }>(windowEventNamesSql(scope, window), signal);
    return rows.map((row) => row.event);
  }

  async fingerprint(scope: ProjectScope, window: PipelineWindow, signal?: AbortSignal): Promise<WindowFingerprint> {
    const [row] = await this.fingerprints(
      scope,
      window.end.getTime() - window.start.getTime(),
      window.start,
      window.end,
      signal,
    );
    return { rows: row?.rows ?? 0, fingerprint: row?.fingerprint ?? '0' };
  }

  /** Fingerprints of every non-empty window of `lengthMs` in [from, to), keyed by window start (ms). */
  async fingerprints(
    scope: ProjectScope,
    lengthMs: number,
    from: Date,
    to: Date,
    signal?: AbortSignal,
  ): Promise<(WindowFingerprint & { start: number })[]> {
    const rows = await this.rows<{ start: number | string; rows: number | string; fingerprint: string }>(
      windowFingerprintsSql(scope, lengthMs, from, to),
      signal,
    );
    return rows.map((r) => ({ start: Number(r.start), rows: Number(r.rows), fingerprint: r.fingerprint }));
  }

  /** One table's rows of the window into one object (an empty window still overwrites it: a re-sync after deletions must empty it). */
  async writeEvents(
    scope: ProjectScope,
    pipeline: Pipeline,
    access: DestinationAccess,
    key: string,
    table: string,
    events: string[] | undefined,
    window: PipelineWindow,
    signal?: AbortSignal,
  ): Promise<void> {
    await this.command(writeEventsSql(scope, pipeline.dataFormat, access, key, table, events, window), signal);
  }

  /** The whole of the project's user profiles, replacing the previous copy. */
  async writePeople(
    scope: ProjectScope,
    pipeline: Pipeline,
    access: DestinationAccess,
    key: string,
    signal?: AbortSignal,
  ): Promise<number> {
    await this.command(writePeopleSql(scope, pipeline.dataFormat, access, key), signal);
    return Number((await this.rows<{ rows: number }>(peopleCountSql(scope), signal))[0]?.rows ?? 0);
  }

  /** A small text object (manifest, load statements), written by ClickHouse like the data. */
  async writeText(access: DestinationAccess, key: string, body: string, signal?: AbortSignal): Promise<void> {
    await this.command(writeTextSql(access, key, body), signal);
  }
}

import { ClickHouseClient, clickhouseDateTime, EVENTS_TABLE, PROFILES_TABLE } from '@analytics/clickhouse';
import { exportedEventLineSql } from '@analytics/export';
import { chCompiled, chIdent, chParam, ChSql, chSql, ProjectScope, renderChSql } from '@analytics/tenancy';
import { Inject, Injectable } from '@nestjs/common';
import { DestinationAccess, objectUrl } from './destination';
import { DataFormat, MASTER_EVENT_TABLE, Pipeline } from './pipeline-definition';
import { PipelineWindow } from './pipeline-windows';

const EVENTS = chIdent(EVENTS_TABLE);
const PROFILES = chIdent(PROFILES_TABLE);

/** The project's events in the window. */
const inWindow = (scope: ProjectScope, window: PipelineWindow): ChSql =>
  chSql`${scope} AND time >= ${chParam(clickhouseDateTime(window.start), "DateTime64(3, 'UTC')")} AND time < ${chParam(clickhouseDateTime(window.end), "DateTime64(3, 'UTC')")}`;

/** Text this file's code built (column lists, formats), for a `chSql` slot. */

/** The raw export's line, so a json object's rows read exactly as `/api/2.0/export` gives them. */
const EVENT_LINE = exportedEventLineSql();

/** Typed Parquet columns of an event table (`mp_event_name` only in `mp_master_event`). */
const eventColumns = (withName: boolean) =>
  `${withName ? 'toString(event) AS mp_event_name, ' : ''}time, distinct_id, insert_id, toUnixTimestamp64Milli(processed_at) AS mp_processing_time_ms, properties`;

/**
 * Query-level settings of every write. A re-run replaces the object. ClickHouse's own S3 retries
 * (100 by default) would hold the engine (chDB runs one statement at a time) for minutes against a
 * dead endpoint: the job's retries with backoff do that instead. Snappy: the Parquet codec every
 * reader and warehouse loader has.
 */
const WRITE_SETTINGS = "SETTINGS s3_truncate_on_insert = 1, s3_retry_attempts = 2, s3_connect_timeout_ms = 5000, output_format_parquet_compression_method = 'snappy'";

const PROFILE_LINE = `concat('{"$distinct_id":', toJSONString(profile_id), ',"$properties":', properties, '}')`;

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

  private target(access: DestinationAccess, key: string, format: string, structure?: string, compression?: string) {
    const credentials = access.destination.accessKeyId ? '{accessKeyId:String}, {secretAccessKey:String}, ' : '';
    const args = [`'${format}'`, structure && `'${structure}'`, compression && `'${compression}'`].filter(Boolean).join(', ');
    const params: Record<string, unknown> = { url: objectUrl(access.destination, key) };
    if (access.destination.accessKeyId) Object.assign(params, { accessKeyId: access.destination.accessKeyId, secretAccessKey: access.secretAccessKey ?? '' });
    return { sql: `INSERT INTO FUNCTION s3({url:String}, ${credentials}${args})`, params };
  }

  private async write(access: DestinationAccess, key: string, format: DataFormat, select: ChSql, signal?: AbortSignal): Promise<void> {
    const target = format === 'parquet' ? this.target(access, key, 'Parquet') : this.target(access, key, 'TabSeparatedRaw', 'line String', 'gzip');
    const { sql, params } = renderChSql(chSql`${chCompiled(target.sql, target.params)} ${select} ${chCompiled(WRITE_SETTINGS)}`);
    await this.clickhouse.command({ query: sql, query_params: params, abort_signal: signal });
  }

  private async rows<T>(query: ChSql, signal?: AbortSignal): Promise<T[]> {
    const { sql, params } = renderChSql(query);
    const result = await this.clickhouse.query({ query: sql, query_params: params, format: 'JSONEachRow', abort_signal: signal });
    return result.json<T>();
  }

  /** Distinct event names of the window, for multischema's one table per event. */
  async eventNames(scope: ProjectScope, window: PipelineWindow, signal?: AbortSignal): Promise<string[]> {
    const rows = await this.rows<{ event: string }>(chSql`SELECT DISTINCT toString(event) AS event FROM ${EVENTS} WHERE ${inWindow(scope, window)} ORDER BY event`, signal);
    return rows.map((row) => row.event);
  }

  async fingerprint(scope: ProjectScope, window: PipelineWindow, signal?: AbortSignal): Promise<WindowFingerprint> {
    const [row] = await this.fingerprints(scope, window.end.getTime() - window.start.getTime(), window.start, window.end, signal);
    return { rows: row?.rows ?? 0, fingerprint: row?.fingerprint ?? '0' };
  }

  /** Fingerprints of every non-empty window of `lengthMs` in [from, to), keyed by window start (ms). */
  async fingerprints(scope: ProjectScope, lengthMs: number, from: Date, to: Date, signal?: AbortSignal): Promise<(WindowFingerprint & { start: number })[]> {
    const rows = await this.rows<{ start: number | string; rows: number | string; fingerprint: string }>(
      chSql`SELECT toUnixTimestamp64Milli(toDateTime64(toStartOfInterval(time, toIntervalSecond(${chParam(lengthMs / 1000, 'UInt32')})), 3, 'UTC')) AS start, count() AS rows,
                concat(toString(count()), '@', toString(toUnixTimestamp64Milli(max(processed_at)))) AS fingerprint
              FROM ${EVENTS} FINAL WHERE ${inWindow(scope, { start: from, end: to })} GROUP BY start ORDER BY start`,
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
    const columns = chCompiled(pipeline.dataFormat === 'parquet' ? eventColumns(table === MASTER_EVENT_TABLE) : `${EVENT_LINE} AS line`);
    const filter = events ? chSql`${inWindow(scope, window)} AND event IN ${chParam(events)}` : inWindow(scope, window);
    await this.write(access, key, pipeline.dataFormat, chSql`SELECT ${columns} FROM ${EVENTS} FINAL WHERE ${filter} ORDER BY time, insert_id`, signal);
  }

  /** The whole of the project's user profiles, replacing the previous copy. */
  async writePeople(scope: ProjectScope, pipeline: Pipeline, access: DestinationAccess, key: string, signal?: AbortSignal): Promise<number> {
    const from = chSql`FROM ${PROFILES} FINAL WHERE ${scope} AND group_key = ''`;
    const columns = chCompiled(pipeline.dataFormat === 'parquet' ? 'profile_id AS distinct_id, properties' : `${PROFILE_LINE} AS line`);
    await this.write(access, key, pipeline.dataFormat, chSql`SELECT ${columns} ${from} ORDER BY profile_id`, signal);
    return Number((await this.rows<{ rows: number }>(chSql`SELECT count() AS rows ${from}`, signal))[0]?.rows ?? 0);
  }

  /** A small text object (manifest, load statements), written by ClickHouse like the data. */
  async writeText(access: DestinationAccess, key: string, body: string, signal?: AbortSignal): Promise<void> {
    const target = this.target(access, key, 'RawBLOB', 'data String');
    // Writes no project's rows: a text the runner made (manifest, load statements).
    const { sql, params } = renderChSql(chSql`${chCompiled(target.sql, target.params)} SELECT ${chParam(body)} ${chCompiled(WRITE_SETTINGS)}`, { acrossProjects: 'writes a text, reads no table' });
    await this.clickhouse.command({ query: sql, query_params: params, abort_signal: signal });
  }
}

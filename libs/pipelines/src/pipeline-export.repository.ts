import { ClickHouseClient, clickhouseDateTime, EVENTS_TABLE, PROFILES_TABLE } from '@analytics/clickhouse';
import { exportedEventLineSql } from '@analytics/export';
import { Inject, Injectable } from '@nestjs/common';
import { DestinationAccess, objectUrl } from './destination';
import { DataFormat, MASTER_EVENT_TABLE, Pipeline } from './pipeline-definition';
import { PipelineWindow } from './pipeline-windows';

const EVENTS_WHERE = "project_id = {project:UInt32} AND time >= {from:DateTime64(3, 'UTC')} AND time < {to:DateTime64(3, 'UTC')}";

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

  private async write(access: DestinationAccess, key: string, format: DataFormat, select: string, params: Record<string, unknown>, signal?: AbortSignal): Promise<void> {
    const target = format === 'parquet' ? this.target(access, key, 'Parquet') : this.target(access, key, 'TabSeparatedRaw', 'line String', 'gzip');
    await this.clickhouse.command({
      query: `${target.sql} ${select} ${WRITE_SETTINGS}`,
      query_params: { ...params, ...target.params },
      abort_signal: signal,
    });
  }

  /** Distinct event names of the window, for multischema's one table per event. */
  async eventNames(projectId: number, window: PipelineWindow, signal?: AbortSignal): Promise<string[]> {
    const result = await this.clickhouse.query({
      query: `SELECT DISTINCT toString(event) AS event FROM ${EVENTS_TABLE} WHERE ${EVENTS_WHERE} ORDER BY event`,
      query_params: this.windowParams(projectId, window),
      format: 'JSONEachRow',
      abort_signal: signal,
    });
    return (await result.json<{ event: string }>()).map((row) => row.event);
  }

  private windowParams(projectId: number, window: PipelineWindow) {
    return { project: projectId, from: clickhouseDateTime(window.start), to: clickhouseDateTime(window.end) };
  }

  async fingerprint(projectId: number, window: PipelineWindow, signal?: AbortSignal): Promise<WindowFingerprint> {
    const [row] = await this.fingerprints(projectId, window.end.getTime() - window.start.getTime(), window.start, window.end, signal);
    return { rows: row?.rows ?? 0, fingerprint: row?.fingerprint ?? '0' };
  }

  /** Fingerprints of every non-empty window of `lengthMs` in [from, to), keyed by window start (ms). */
  async fingerprints(projectId: number, lengthMs: number, from: Date, to: Date, signal?: AbortSignal): Promise<(WindowFingerprint & { start: number })[]> {
    const result = await this.clickhouse.query({
      query: `SELECT toUnixTimestamp64Milli(toDateTime64(toStartOfInterval(time, toIntervalSecond({length:UInt32})), 3, 'UTC')) AS start, count() AS rows,
                concat(toString(count()), '@', toString(toUnixTimestamp64Milli(max(processed_at)))) AS fingerprint
              FROM ${EVENTS_TABLE} FINAL WHERE ${EVENTS_WHERE} GROUP BY start ORDER BY start`,
      query_params: { ...this.windowParams(projectId, { start: from, end: to }), length: lengthMs / 1000 },
      format: 'JSONEachRow',
      abort_signal: signal,
    });
    return (await result.json<{ start: number | string; rows: number | string; fingerprint: string }>()).map((r) => ({ start: Number(r.start), rows: Number(r.rows), fingerprint: r.fingerprint }));
  }

  /** One table's rows of the window into one object (an empty window still overwrites it: a re-sync after deletions must empty it). */
  async writeEvents(pipeline: Pipeline, access: DestinationAccess, key: string, table: string, events: string[] | undefined, window: PipelineWindow, signal?: AbortSignal): Promise<void> {
    const columns = pipeline.dataFormat === 'parquet' ? eventColumns(table === MASTER_EVENT_TABLE) : `${EVENT_LINE} AS line`;
    const filter = events ? `${EVENTS_WHERE} AND event IN {events:Array(String)}` : EVENTS_WHERE;
    const params = { ...this.windowParams(pipeline.projectId, window), ...(events ? { events } : {}) };
    await this.write(access, key, pipeline.dataFormat, `SELECT ${columns} FROM ${EVENTS_TABLE} FINAL WHERE ${filter} ORDER BY time, insert_id`, params, signal);
  }

  /** The whole of the project's user profiles, replacing the previous copy. */
  async writePeople(pipeline: Pipeline, access: DestinationAccess, key: string, signal?: AbortSignal): Promise<number> {
    const where = `FROM ${PROFILES_TABLE} FINAL WHERE project_id = {project:UInt32} AND group_key = ''`;
    const columns = pipeline.dataFormat === 'parquet' ? 'profile_id AS distinct_id, properties' : `${PROFILE_LINE} AS line`;
    await this.write(access, key, pipeline.dataFormat, `SELECT ${columns} ${where} ORDER BY profile_id`, { project: pipeline.projectId }, signal);
    const result = await this.clickhouse.query({ query: `SELECT count() AS rows ${where}`, query_params: { project: pipeline.projectId }, format: 'JSONEachRow', abort_signal: signal });
    return Number((await result.json<{ rows: number }>())[0]?.rows ?? 0);
  }

  /** A small text object (manifest, load statements), written by ClickHouse like the data. */
  async writeText(access: DestinationAccess, key: string, body: string, signal?: AbortSignal): Promise<void> {
    const target = this.target(access, key, 'RawBLOB', 'data String');
    await this.clickhouse.command({ query: `${target.sql} SELECT {body:String} ${WRITE_SETTINGS}`, query_params: { ...target.params, body }, abort_signal: signal });
  }
}

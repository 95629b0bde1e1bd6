import { clickhouseDateTime } from '@analytics/clickhouse';
import { exportedEventLineSql, storedEventsSql } from '@analytics/event-store';
import { userProfilesSql } from '@analytics/profile-store';
import {
  ChBoundQuery,
  chCompiled,
  chIdent,
  chParam,
  ChSql,
  chSql,
  ProjectScope,
  renderChSql,
} from '@analytics/tenancy';
import { DestinationAccess, objectUrl } from './destination';
import { DataFormat, MASTER_EVENT_TABLE } from './pipeline-definition';
import { PipelineWindow } from './pipeline-windows';

/** The statements PipelineExportRepository runs, built apart from the client so that they render without I/O (libs/pipelines/sql/). */

/** The project's events in the window. */
const inWindow = (scope: ProjectScope, window: PipelineWindow): ChSql =>
  chSql`${scope} AND time >= ${chParam(clickhouseDateTime(window.start), "DateTime64(3, 'UTC')")} AND time < ${chParam(clickhouseDateTime(window.end), "DateTime64(3, 'UTC')")}`;

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
const WRITE_SETTINGS =
  "SETTINGS s3_truncate_on_insert = 1, s3_retry_attempts = 2, s3_connect_timeout_ms = 5000, output_format_parquet_compression_method = 'snappy'";

const PROFILE_LINE = `concat('{"$distinct_id":', toJSONString(profile_id), ',"$properties":', properties, '}')`;

/** `INSERT INTO FUNCTION s3(…)` of one object; the URL and the key pair are bound parameters. */
function target(
  access: DestinationAccess,
  key: string,
  format: string,
  structure?: string,
  compression?: string,
): ChSql {
  const credentials = access.destination.accessKeyId ? '{accessKeyId:String}, {secretAccessKey:String}, ' : '';
  const args = [`'${format}'`, structure && `'${structure}'`, compression && `'${compression}'`]
    .filter(Boolean)
    .join(', ');
  const params: Record<string, unknown> = { url: objectUrl(access.destination, key) };
  if (access.destination.accessKeyId)
    Object.assign(params, {
      accessKeyId: access.destination.accessKeyId,
      secretAccessKey: access.secretAccessKey ?? '',
    });
  return chCompiled(`INSERT INTO FUNCTION s3({url:String}, ${credentials}${args})`, params);
}

/** `select`'s rows into one object: typed Parquet, or gzip lines. */
function writeSql(access: DestinationAccess, key: string, format: DataFormat, select: ChSql): ChBoundQuery {
  const into =
    format === 'parquet'
      ? target(access, key, 'Parquet')
      : target(access, key, 'TabSeparatedRaw', 'line String', 'gzip');
  return renderChSql(chSql`${into} ${select} ${chCompiled(WRITE_SETTINGS)}`);
}

/** Distinct event names of the window, for multischema's one table per event. */
export function windowEventNamesSql(scope: ProjectScope, window: PipelineWindow): ChBoundQuery {
  return renderChSql(
    chSql`SELECT DISTINCT toString(event) AS event FROM ${storedEventsSql(scope, { final: false })} WHERE ${inWindow(scope, window)} ORDER BY event`,
  );
}

/** Rows and the latest ingestion time of every non-empty window of `lengthMs` in [from, to), keyed by window start (ms). */
export function windowFingerprintsSql(scope: ProjectScope, lengthMs: number, from: Date, to: Date): ChBoundQuery {
  return renderChSql(
    chSql`SELECT toUnixTimestamp64Milli(toDateTime64(toStartOfInterval(time, toIntervalSecond(${chParam(lengthMs / 1000, 'UInt32')})), 3, 'UTC')) AS start, count() AS rows,
                concat(toString(count()), '@', toString(toUnixTimestamp64Milli(max(processed_at)))) AS fingerprint
              FROM ${storedEventsSql(scope)} WHERE ${inWindow(scope, { start: from, end: to })} GROUP BY start ORDER BY start`,
  );
}

/** One table's rows of the window (`events`: only those events) into one object. */
export function writeEventsSql(
  scope: ProjectScope,
  format: DataFormat,
  access: DestinationAccess,
  key: string,
  table: string,
  events: string[] | undefined,
  window: PipelineWindow,
): ChBoundQuery {
  const columns = chCompiled(
    format === 'parquet' ? eventColumns(table === MASTER_EVENT_TABLE) : `${EVENT_LINE} AS line`,
  );
  const filter = events ? chSql`${inWindow(scope, window)} AND event IN ${chParam(events)}` : inWindow(scope, window);
  return writeSql(
    access,
    key,
    format,
    chSql`SELECT ${columns} FROM ${storedEventsSql(scope)} WHERE ${filter} ORDER BY time, insert_id`,
  );
}

/** The whole of the project's user profiles into one object. */
export function writePeopleSql(
  scope: ProjectScope,
  format: DataFormat,
  access: DestinationAccess,
  key: string,
): ChBoundQuery {
  const columns = chCompiled(
    format === 'parquet' ? 'profile_id AS distinct_id, properties' : `${PROFILE_LINE} AS line`,
  );
  return writeSql(access, key, format, chSql`SELECT ${columns} ${userProfilesSql(scope)} ORDER BY profile_id`);
}

/** How many user profiles the project has (what writePeopleSql wrote). */
export function peopleCountSql(scope: ProjectScope): ChBoundQuery {
  return renderChSql(chSql`SELECT count() AS rows ${userProfilesSql(scope)}`);
}

/** A small text object (manifest, load statements) the runner made: it reads no project's rows. */
export function writeTextSql(access: DestinationAccess, key: string, body: string): ChBoundQuery {
  return renderChSql(
    chSql`${target(access, key, 'RawBLOB', 'data String')} SELECT ${chParam(body)} ${chCompiled(WRITE_SETTINGS)}`,
    { acrossProjects: 'writes a text, reads no table' },
  );
}

import { IncomingMessage, ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import { createGunzip, createGzip } from 'node:zlib';

/**
 * The stand-in's side of ClickHouse's HTTP interface: which URL parameters are settings, the
 * statements it tells apart, what a request asks for, errors as ClickHouse's HTTP handler writes
 * them, the X-ClickHouse-Summary header, and reading and writing bodies.
 */

/** URL parameters of the HTTP interface that are not settings (ClickHouse's HTTPHandler reads them itself). */
export const NOT_SETTINGS = new Set([
  'query',
  'database',
  'default_format',
  'query_id',
  'session_id',
  'session_timeout',
  'session_check',
  'user',
  'password',
  'quota_key',
  'role',
  'compress',
  'decompress',
  'buffer_size',
  'stacktrace',
  'client_protocol_version',
  'close_session',
]);

/** Settings only ClickHouse's HTTP layer knows; chDB rejects them as unknown. enable_http_compression is honoured here. */
export const HTTP_ONLY_SETTINGS = new Set([
  'wait_end_of_query',
  'send_progress_in_http_headers',
  'http_response_buffer_size',
  'http_headers_progress_interval_ms',
  'http_send_progress_interval_ms',
  'enable_http_compression',
  'http_zlib_compression_level',
  'http_response_compression_method',
  'http_native_compression_disable_checksumming_on_decompress',
  'http_wait_end_of_query',
]);

/** An INSERT whose rows follow in the body: the part chDB's raw insert can take as Buffer, zero-copy. */
export const DATA_INSERT =
  /^\s*INSERT\s+INTO\s+([A-Za-z0-9_.`"]+)\s*(?:\(([^)]*)\))?\s*(?:SETTINGS\s+[^]*?)?FORMAT\s+(\w+)\s*$/i;
/** Binary input formats: the rows below are passed on as text, which would corrupt these, so they are refused. */
export const BINARY_FORMATS = /^(RowBinary|Native|Parquet|Arrow|ORC|Avro|Protobuf|CapnProto|MsgPack|BSONEachRow|Npy)/i;
export const RAW_INSERT_FORMATS = new Set([
  'JSONEachRow',
  'JSONCompactEachRow',
  'CSV',
  'CSVWithNames',
  'TSV',
  'TabSeparated',
  'TSVWithNames',
  'TabSeparatedWithNames',
]);
/** Statements that return rows, streamed chunk by chunk; everything else runs as one call. */
export const READS = /^\s*(?:\(\s*)*(SELECT|WITH|SHOW|DESCRIBE|DESC|EXISTS|EXPLAIN)\b/i;
export const EXPLICIT_FORMAT = /\bFORMAT\s+(\w+)\s*;?\s*$/i;
export const SETTING_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
/** Bodies of a data INSERT are held whole (one INSERT, one block: dedup tokens keep their meaning); more than this is refused. */
export const MAX_INSERT_BYTES = Number(process.env.CLICKHOUSE_STANDIN_MAX_INSERT_MB ?? 1024) * 2 ** 20;
/** ClickHouse's http_max_uri_size default: the longest request line (query and bound parameters) a server takes. */
export const HTTP_MAX_URI_SIZE = 2 ** 20;
/**
 * The longest multipart form field (a `param_<name>` sent in the body): http_max_field_value_size as
 * deploy/k8s/base/engines/clickhouse.yaml sets it for the services' profile (a server's default is 128 KiB).
 */
export const HTTP_MAX_FIELD_VALUE_SIZE = 64 * 2 ** 20;

/** A ClickHouse exception as the server's HTTP handler writes it. */
export class EngineError extends Error {
  constructor(
    message: string,
    readonly code: number,
  ) {
    super(message);
  }

  static from(error: unknown): EngineError {
    if (error instanceof EngineError) return error;
    const message = error instanceof Error ? error.message : String(error);
    const code = Number(/Code: (\d+)\./.exec(message)?.[1] ?? 1001);
    return new EngineError(
      /Code: \d+\./.test(message) ? message : `Code: ${code}. DB::Exception: ${message}. (STD_EXCEPTION)`,
      code,
    );
  }
}

/** What a request asks of the engine, read from its URL and headers as ClickHouse's HTTP handler reads them. */
export interface ParsedRequest {
  method: string | undefined;
  /** The URL's `query` ('' when the body holds it all). */
  query: string;
  /** The body, gunzipped when sent with Content-Encoding: gzip. */
  body: Readable;
  /** Settings for this request only. */
  settings: Map<string, string>;
  /** `param_<name>` values, verbatim: the client has put them in ClickHouse's escaped text form. */
  params: Record<string, string>;
  /** The boundary of a multipart/form-data body, whose fields are read as more URL parameters (readForm). */
  formBoundary?: string;
  database: string;
  defaultFormat: string;
  gzipResponse: boolean;
}

/** One URL (or form) parameter, as ClickHouse's HTTP handler takes it: a bound parameter, its own, or a setting. */
function takeParameter(request: ParsedRequest, name: string, value: string): void {
  if (name === 'query') request.query += value;
  else if (name.startsWith('param_')) request.params[name.slice('param_'.length)] = value;
  else if (NOT_SETTINGS.has(name) || HTTP_ONLY_SETTINGS.has(name)) return;
  else if (!SETTING_NAME.test(name))
    throw new EngineError(`Code: 115. DB::Exception: Unknown setting '${name}'. (UNKNOWN_SETTING)`, 115);
  else request.settings.set(name, value);
}

export function readRequest(request: IncomingMessage, url: URL): ParsedRequest {
  const contentType = String(request.headers['content-type'] ?? '');
  const formBoundary = contentType.startsWith('multipart/form-data')
    ? /boundary=(?:"([^"]+)"|([^;\s]+))/.exec(contentType)
    : undefined;
  if (contentType.startsWith('multipart/') && !formBoundary)
    throw new EngineError(
      'Code: 1000. DB::Exception: multipart body without a form-data boundary. (POCO_EXCEPTION)',
      1000,
    );
  const database = url.searchParams.get('database') || 'default';
  if (!SETTING_NAME.test(database))
    throw new EngineError(`Code: 81. DB::Exception: Database ${database} does not exist. (UNKNOWN_DATABASE)`, 81);
  const parsed: ParsedRequest = {
    method: request.method,
    query: '',
    body: request.headers['content-encoding'] === 'gzip' ? request.pipe(createGunzip()) : request,
    settings: new Map<string, string>(),
    params: {},
    formBoundary: formBoundary ? (formBoundary[1] ?? formBoundary[2]) : undefined,
    database,
    defaultFormat: url.searchParams.get('default_format') || 'TabSeparated',
    gzipResponse:
      url.searchParams.get('enable_http_compression') === '1' &&
      /\bgzip\b/.test(String(request.headers['accept-encoding'] ?? '')),
  };
  for (const [name, value] of url.searchParams) takeParameter(parsed, name, value);
  return parsed;
}

/**
 * A multipart/form-data body: its fields are parameters like the URL's (ClickHouse's HTMLForm), the
 * query then comes from `query` fields only, never the body. A file part would be an external
 * table, which the stand-in does not serve.
 */
export async function readForm(request: ParsedRequest): Promise<void> {
  const body = await readWhole(request.body, MAX_INSERT_BYTES);
  request.body = Readable.from([]);
  const delimiter = Buffer.from(`\r\n--${request.formBoundary}`);
  const data = Buffer.concat([Buffer.from('\r\n'), body]);
  let at = data.indexOf(delimiter);
  while (at !== -1) {
    const start = at + delimiter.length;
    if (data.subarray(start, start + 2).toString() === '--') return;
    const next = data.indexOf(delimiter, start);
    if (next === -1) break;
    const part = data.subarray(start + 2, next);
    const headersEnd = part.indexOf('\r\n\r\n');
    const headers = part.subarray(0, headersEnd).toString();
    if (/filename=/i.test(headers))
      throw new EngineError(
        'Code: 48. DB::Exception: external tables (form files) are not served by the stand-in. (NOT_IMPLEMENTED)',
        48,
      );
    const value = part.subarray(headersEnd + 4);
    if (value.length > HTTP_MAX_FIELD_VALUE_SIZE)
      throw new EngineError('Code: 1000. DB::Exception: Field value too long. (POCO_EXCEPTION)', 1000);
    takeParameter(request, /name="([^"]*)"/.exec(headers)?.[1] ?? '', value.toString());
    at = next;
  }
  throw new EngineError('Code: 1000. DB::Exception: No boundary line found. (POCO_EXCEPTION)', 1000);
}

/** The counters of `X-ClickHouse-Summary`, each written as a decimal string. */
const SUMMARY_FIELDS = [
  'read_rows',
  'read_bytes',
  'written_rows',
  'written_bytes',
  'total_rows_to_read',
  'result_rows',
  'result_bytes',
  'elapsed_ns',
] as const;

export const summary = (values: Partial<Record<(typeof SUMMARY_FIELDS)[number], number>>): Record<string, string> =>
  Object.fromEntries(SUMMARY_FIELDS.map((field) => [field, String(Math.round(values[field] ?? 0))]));

export async function readWhole(body: Readable, limit: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let length = 0;
  for await (const chunk of body) {
    length += (chunk as Buffer).length;
    if (length > limit)
      throw new EngineError(
        `Code: 1001. DB::Exception: The stand-in holds at most ${limit} bytes of a request body. (STD_EXCEPTION)`,
        1001,
      );
    chunks.push(chunk as Buffer);
  }
  return chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, length);
}

/** Until `out` takes more, or the response is gone. */
export function drained(out: NodeJS.WritableStream, response: ServerResponse): Promise<void> {
  return new Promise((next) => {
    const done = () => {
      out.removeListener('drain', done);
      response.removeListener('close', done);
      next();
    };
    out.once('drain', done);
    response.once('close', done);
  });
}

export async function send(response: ServerResponse, gzip: boolean, body: Buffer): Promise<void> {
  response.statusCode = 200;
  if (!gzip) {
    response.end(body);
    return;
  }
  response.setHeader('Content-Encoding', 'gzip');
  const zip = createGzip();
  zip.pipe(response);
  await new Promise<void>((finished) => zip.end(body, finished));
}

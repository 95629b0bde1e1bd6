import { lockDirectory } from '@analytics/directory-lock';
import { randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import { AddressInfo } from 'node:net';
import { dirname, join, resolve } from 'node:path';
import { Readable } from 'node:stream';
import { createGunzip, createGzip } from 'node:zlib';

/**
 * A ClickHouse *server* stand-in for the benchmarks: the subset of ClickHouse's HTTP interface that
 * @clickhouse/client sends (see its node_base_connection.ts and socket_pool.ts), served by chDB on
 * one data directory in this process. There is no ClickHouse server binary on the bench machines,
 * and chDB (clickhouse-local in a library) has no HTTP handler of its own, so this is how a service
 * runs its production code path (`CLICKHOUSE_URL=http://…`) with the engine in another process.
 *
 * Served: POST/GET `/?query=…` with the query in `query` and/or the body (an INSERT's rows follow
 * its `query` in the body, as the client sends them), `database`, `query_id`, `default_format`,
 * settings as URL parameters for that request only, `param_<name>` bound verbatim (the client has
 * already put them in ClickHouse's escaped text form), gzip both ways, `/ping`, streamed SELECT
 * output with backpressure, and errors as ClickHouse answers them (HTTP 500, the exception text in
 * the body, `X-ClickHouse-Exception-Code`) so the client's parseError maps them to ClickHouseError.
 *
 * Not served: sessions (`session_id`), multipart parameters, progress headers, auth (any user).
 *
 * Each request runs on a chDB connection of its own, taken from a pool: chDB keeps SET statements
 * on a connection, so a connection restores (SET … = DEFAULT) what its previous request changed
 * before it runs the next one, and one streaming cursor per connection is all chDB allows.
 */

/** URL parameters of the HTTP interface that are not settings (ClickHouse's HTTPHandler reads them itself). */
const NOT_SETTINGS = new Set([
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
const HTTP_ONLY_SETTINGS = new Set([
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
const DATA_INSERT = /^\s*INSERT\s+INTO\s+([A-Za-z0-9_.`"]+)\s*(?:\(([^)]*)\))?\s*(?:SETTINGS\s+[^]*?)?FORMAT\s+(\w+)\s*$/i;
/** Binary input formats: the rows below are passed on as text, which would corrupt these, so they are refused. */
const BINARY_FORMATS = /^(RowBinary|Native|Parquet|Arrow|ORC|Avro|Protobuf|CapnProto|MsgPack|BSONEachRow|Npy)/i;
const RAW_INSERT_FORMATS = new Set(['JSONEachRow', 'JSONCompactEachRow', 'CSV', 'CSVWithNames', 'TSV', 'TabSeparated', 'TSVWithNames', 'TabSeparatedWithNames']);
/** Statements that return rows, streamed chunk by chunk; everything else runs as one call. */
const READS = /^\s*(?:\(\s*)*(SELECT|WITH|SHOW|DESCRIBE|DESC|EXISTS|EXPLAIN)\b/i;
const EXPLICIT_FORMAT = /\bFORMAT\s+(\w+)\s*;?\s*$/i;
const SETTING_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
/** Bodies of a data INSERT are held whole (one INSERT, one block: dedup tokens keep their meaning); more than this is refused. */
const MAX_INSERT_BYTES = Number(process.env.CLICKHOUSE_STANDIN_MAX_INSERT_MB ?? 1024) * 2 ** 20;

/** chDB's native addon, used where its JavaScript layer would re-escape values the client already escaped. */
interface ChdbNative {
  QueryAsyncConnection(connection: unknown, sql: string, format: string, params?: Record<string, string>): Promise<unknown>;
  StreamQuery(connection: unknown, sql: string, format: string, params?: Record<string, string>): unknown;
  StreamFetch(handle: unknown): Promise<{ done: boolean; bytes: Buffer; numRows: number }>;
  StreamCancel(handle: unknown): void;
}
interface ChdbResultView {
  readonly elapsed: number;
  readonly rowsRead: number;
  readonly bytesRead: number;
  bytes(): Uint8Array;
}
type ChdbModule = typeof import('chdb');
type ChdbSession = InstanceType<ChdbModule['Session']>;

function loadChdb(): { chdb: ChdbModule; native: ChdbNative; toResult: (raw: unknown) => ChdbResultView } {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const chdb = require('chdb') as ChdbModule;
  // The bound-parameter calls of chdb's Session TSV-escape string values; the client sends them
  // escaped already (`it\'s`), so they go to the addon as they came, as ClickHouse's server takes them.
  const root = dirname(require.resolve('chdb'));
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const native = (require(join(root, 'dist/loader.js')) as { loadNative(): ChdbNative }).loadNative();
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { ChdbResult } = require(join(root, 'dist/result.js')) as { ChdbResult: new (raw: unknown) => ChdbResultView };
  return { chdb, native, toResult: (raw) => new ChdbResult(raw) };
}

/** A ClickHouse exception as the server's HTTP handler writes it. */
class EngineError extends Error {
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
    return new EngineError(/Code: \d+\./.test(message) ? message : `Code: ${code}. DB::Exception: ${message}. (STD_EXCEPTION)`, code);
  }
}

/** One chDB connection with what the previous request left on it. */
interface PooledConnection {
  session: ChdbSession;
  /** Settings a request SET on this connection, to be restored before the next one. */
  changed: Set<string>;
  database: string;
}

interface Summary {
  read_rows: string;
  read_bytes: string;
  written_rows: string;
  written_bytes: string;
  total_rows_to_read: string;
  result_rows: string;
  result_bytes: string;
  elapsed_ns: string;
}

const summary = (values: Partial<Record<keyof Summary, number>>): Summary => ({
  read_rows: String(values.read_rows ?? 0),
  read_bytes: String(values.read_bytes ?? 0),
  written_rows: String(values.written_rows ?? 0),
  written_bytes: String(values.written_bytes ?? 0),
  total_rows_to_read: String(values.total_rows_to_read ?? 0),
  result_rows: String(values.result_rows ?? 0),
  result_bytes: String(values.result_bytes ?? 0),
  elapsed_ns: String(Math.round((values.elapsed_ns ?? 0) * 1)),
});

const quote = (value: string) => `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;

export interface ClickHouseStandIn {
  /** http://host:port, for CLICKHOUSE_URL (append /<database>). */
  url: string;
  port: number;
  /** Requests served so far, by kind: what a test can check was exercised. */
  served: Record<'insert' | 'stream' | 'statement' | 'error', number>;
  close(): Promise<void>;
}

export async function startClickHouseStandIn(options: { directory: string; port?: number; host?: string }): Promise<ClickHouseStandIn> {
  const directory = resolve(options.directory);
  mkdirSync(directory, { recursive: true });
  // As createClickHouseClient does for chdb: URLs: one process per chDB directory.
  const unlock = lockDirectory(directory);
  const { chdb, native, toResult } = loadChdb();
  const idle: PooledConnection[] = [];
  const all: PooledConnection[] = [];
  const served = { insert: 0, stream: 0, statement: 0, error: 0 };
  const acquire = (): PooledConnection => {
    const pooled = idle.pop();
    if (pooled) return pooled;
    const created = { session: new chdb.Session(directory), changed: new Set<string>(), database: 'default' };
    all.push(created);
    return created;
  };

  /** SETs that make the connection what this request asks for: its settings, the others back to their defaults. */
  const prelude = (connection: PooledConnection, settings: Map<string, string>, database: string): string[] => {
    const statements: string[] = [];
    for (const name of connection.changed) if (!settings.has(name)) statements.push(`SET ${name} = DEFAULT`);
    for (const [name, value] of settings) statements.push(`SET ${name} = ${quote(value)}`);
    connection.changed = new Set(settings.keys());
    if (database !== connection.database) {
      statements.push(`USE ${database}`);
      connection.database = database;
    }
    return statements;
  };

  const run = async (connection: PooledConnection, sql: string, format: string, params?: Record<string, string>) => {
    try {
      return toResult(await native.QueryAsyncConnection(connection.session.connection, sql, format, params));
    } catch (error) {
      throw EngineError.from(error);
    }
  };

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(request.url ?? '/', 'http://stand-in');
    if (url.pathname === '/ping' || (request.method === 'GET' && url.pathname === '/' && !url.searchParams.has('query'))) {
      response.end('Ok.\n');
      return;
    }
    const queryId = url.searchParams.get('query_id') || randomUUID();
    response.setHeader('X-ClickHouse-Query-Id', queryId);
    response.setHeader('X-ClickHouse-Server-Display-Name', 'chdb-stand-in');
    if ((request.headers['content-type'] ?? '').startsWith('multipart/')) throw new EngineError('Code: 48. DB::Exception: multipart parameters are not served by the stand-in. (NOT_IMPLEMENTED)', 48);
    const settings = new Map<string, string>();
    const params: Record<string, string> = {};
    for (const [name, value] of url.searchParams) {
      if (name.startsWith('param_')) params[name.slice('param_'.length)] = value;
      else if (NOT_SETTINGS.has(name) || HTTP_ONLY_SETTINGS.has(name)) continue;
      else if (!SETTING_NAME.test(name)) throw new EngineError(`Code: 115. DB::Exception: Unknown setting '${name}'. (UNKNOWN_SETTING)`, 115);
      else settings.set(name, value);
    }
    const database = url.searchParams.get('database') || 'default';
    if (!SETTING_NAME.test(database)) throw new EngineError(`Code: 81. DB::Exception: Database ${database} does not exist. (UNKNOWN_DATABASE)`, 81);
    const defaultFormat = url.searchParams.get('default_format') || 'TabSeparated';
    const compressResponse = url.searchParams.get('enable_http_compression') === '1' && /\bgzip\b/.test(String(request.headers['accept-encoding'] ?? ''));
    const body: Readable = request.headers['content-encoding'] === 'gzip' ? request.pipe(createGunzip()) : request;
    const urlQuery = url.searchParams.get('query') ?? '';

    const connection = acquire();
    let failed = true;
    try {
      const insert = urlQuery ? DATA_INSERT.exec(urlQuery) : null;
      if (insert && BINARY_FORMATS.test(insert[3])) throw new EngineError(`Code: 48. DB::Exception: the stand-in takes INSERT rows in text formats only, not ${insert[3]}. (NOT_IMPLEMENTED)`, 48);
      if (insert && RAW_INSERT_FORMATS.has(insert[3]) && !/\bSETTINGS\b/i.test(urlQuery)) {
        const rows = await readWhole(body, MAX_INSERT_BYTES);
        const setup = prelude(connection, new Map(), database);
        if (setup.length) await run(connection, setup.join('; '), 'TabSeparated');
        served.insert++;
        let result: { rowsWritten: number; bytesWritten: number; elapsed: number } = { rowsWritten: 0, bytesWritten: 0, elapsed: 0 };
        // The client sends an empty body for nothing to insert; ClickHouse answers that with success.
        if (rows.length) {
          try {
            result = await connection.session.insert({
              table: insert[1].replace(/[`"]/g, ''),
              format: insert[3] as 'JSONEachRow',
              values: rows,
              ...(insert[2] ? { columns: insert[2].split(',').map((column) => column.trim().replace(/[`"]/g, '')) } : {}),
              settings: Object.fromEntries(settings),
            });
          } catch (error) {
            throw EngineError.from(error);
          }
        }
        response.setHeader('X-ClickHouse-Summary', JSON.stringify(summary({ written_rows: result.rowsWritten, written_bytes: result.bytesWritten, elapsed_ns: result.elapsed * 1e9 })));
        response.end();
        failed = false;
        return;
      }
      const text = urlQuery && request.method === 'POST' ? `${urlQuery}\n${(await readWhole(body, MAX_INSERT_BYTES)).toString()}` : urlQuery || (await readWhole(body, MAX_INSERT_BYTES)).toString();
      const sql = text.trim().replace(/;\s*$/, '');
      if (!sql) throw new EngineError('Code: 62. DB::Exception: Empty query. (SYNTAX_ERROR)', 62);
      const format = EXPLICIT_FORMAT.exec(sql)?.[1] ?? defaultFormat;
      response.setHeader('X-ClickHouse-Format', format);
      response.setHeader('X-ClickHouse-Timezone', 'UTC');
      const setup = prelude(connection, settings, database);
      const bound = Object.keys(params).length ? params : undefined;
      if (!READS.test(sql)) {
        served.statement++;
        const result = await run(connection, [...setup, sql].join('; '), format, bound);
        response.setHeader('X-ClickHouse-Summary', JSON.stringify(summary({ read_rows: result.rowsRead, read_bytes: result.bytesRead, elapsed_ns: result.elapsed * 1e9 })));
        await send(response, compressResponse, [Buffer.from(result.bytes())]);
        failed = false;
        return;
      }
      if (setup.length) await run(connection, setup.join('; '), 'TabSeparated');
      served.stream++;
      await stream(connection, sql, format, bound, response, compressResponse);
      failed = false;
    } finally {
      // After a failure the connection's settings may not be what `prelude` recorded (a SET that
      // failed): it is closed, not reused. Its calls have all returned by now.
      if (failed) {
        all.splice(all.indexOf(connection), 1);
        connection.session.close();
      } else idle.push(connection);
    }
  }

  /**
   * A read, chunk by chunk as chDB produces them: the next chunk is fetched when the socket has
   * taken the last one, and a client that goes away cancels the query. The first chunk is fetched
   * before the headers go, so an error at the start is an HTTP 500 as from ClickHouse; one later
   * can only cut the response short, which the client reports as an error too.
   */
  async function stream(connection: PooledConnection, sql: string, format: string, params: Record<string, string> | undefined, response: ServerResponse, gzip: boolean): Promise<void> {
    let handle: unknown;
    let inflight: Promise<unknown> | undefined;
    let done = false;
    const fetch = async () => {
      const pending = native.StreamFetch(handle);
      inflight = pending;
      try {
        return await pending;
      } finally {
        inflight = undefined;
      }
    };
    let gone = false;
    response.once('close', () => (gone = !response.writableFinished));
    try {
      let chunk: { done: boolean; bytes: Buffer; numRows: number };
      try {
        handle = native.StreamQuery(connection.session.connection, sql, format, params);
        chunk = await fetch();
      } catch (error) {
        throw EngineError.from(error);
      }
      response.setHeader('X-ClickHouse-Summary', JSON.stringify(summary({})));
      response.statusCode = 200;
      const out = gzip ? createGzip() : response;
      if (gzip) {
        response.setHeader('Content-Encoding', 'gzip');
        out.pipe(response);
      }
      while (!chunk.done && !gone) {
        if (!out.write(chunk.bytes)) await drained(out, response);
        if (gone) break;
        try {
          chunk = await fetch();
        } catch (error) {
          // Headers are gone: the only way left to say "failed" is to cut the response short.
          response.destroy(EngineError.from(error));
          return;
        }
      }
      done = chunk.done;
      if (!gone) await new Promise<void>((finished) => out.end(finished));
    } finally {
      if (handle !== undefined && !done) {
        // Cancel only once no fetch is running on the handle (chDB destroys it at once).
        const cancel = () => native.StreamCancel(handle);
        if (inflight) await inflight.then(cancel, cancel);
        else cancel();
      }
    }
  }

  const server: Server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      served.error++;
      const failure = EngineError.from(error);
      if (response.headersSent) {
        response.destroy(failure);
        return;
      }
      response.statusCode = 500;
      response.setHeader('X-ClickHouse-Exception-Code', String(failure.code));
      response.setHeader('Content-Type', 'text/plain; charset=UTF-8');
      // The body may not have been read (the request failed before): read it away so keep-alive holds.
      request.resume();
      response.end(`${failure.message}\n`);
    });
  });
  server.keepAliveTimeout = 10_000;
  await new Promise<void>((listening, failed) => {
    server.once('error', failed);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => listening());
  });
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://${options.host ?? '127.0.0.1'}:${port}`,
    port,
    served,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((closed) => server.close(() => closed()));
      // A request cut short still has its chDB call running: closing its connection under it aborts the engine.
      for (const deadline = Date.now() + 10_000; idle.length < all.length && Date.now() < deadline; ) await new Promise((wait) => setTimeout(wait, 20));
      for (const connection of all.splice(0)) connection.session.close();
      unlock();
    },
  };
}

async function readWhole(body: Readable, limit: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let length = 0;
  for await (const chunk of body) {
    length += (chunk as Buffer).length;
    if (length > limit) throw new EngineError(`Code: 1001. DB::Exception: The stand-in holds at most ${limit} bytes of a request body. (STD_EXCEPTION)`, 1001);
    chunks.push(chunk as Buffer);
  }
  return chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, length);
}

/** Until `out` takes more, or the response is gone. */
function drained(out: NodeJS.WritableStream, response: ServerResponse): Promise<void> {
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

async function send(response: ServerResponse, gzip: boolean, chunks: Buffer[]): Promise<void> {
  response.statusCode = 200;
  if (!gzip) {
    response.end(Buffer.concat(chunks));
    return;
  }
  response.setHeader('Content-Encoding', 'gzip');
  const zip = createGzip();
  zip.pipe(response);
  await new Promise<void>((finished) => zip.end(Buffer.concat(chunks), finished));
}

/** As a process of its own (the benches): CLICKHOUSE_STANDIN_DIR, CLICKHOUSE_STANDIN_PORT; prints its port when listening. */
if (require.main === module) {
  const dir = process.env.CLICKHOUSE_STANDIN_DIR;
  if (!dir) throw new Error('CLICKHOUSE_STANDIN_DIR is required');
  startClickHouseStandIn({ directory: dir, port: Number(process.env.CLICKHOUSE_STANDIN_PORT ?? 0) }).then(
    (standIn) => {
      process.stdout.write(`clickhouse stand-in listening on ${standIn.port}\n`);
      const stop = () => void standIn.close().finally(() => process.exit(0));
      process.once('SIGTERM', stop);
      process.once('SIGINT', stop);
    },
    (error: unknown) => {
      process.stderr.write(`clickhouse stand-in failed: ${(error as Error).stack}\n`);
      process.exit(1);
    },
  );
}

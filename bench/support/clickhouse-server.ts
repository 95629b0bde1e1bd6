import { lockDirectory } from '@analytics/directory-lock';
import { randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import { AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import { Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import { createChdbConnectionPool } from './clickhouse-stand-in/chdb-connection-pool';
import { streamRead } from './clickhouse-stand-in/chdb-streamed-read';
import {
  BINARY_FORMATS,
  DATA_INSERT,
  EngineError,
  EXPLICIT_FORMAT,
  HTTP_MAX_URI_SIZE,
  HTTP_ONLY_SETTINGS,
  MAX_INSERT_BYTES,
  NOT_SETTINGS,
  RAW_INSERT_FORMATS,
  READS,
  readWhole,
  send,
  SETTING_NAME,
  summary,
} from './clickhouse-stand-in/http-interface';

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
 * Each request runs on a pooled chDB connection (clickhouse-stand-in/chdb-connection-pool.ts); the
 * HTTP interface's parameters, errors and bodies are in clickhouse-stand-in/http-interface.ts.
 */

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
  const pool = createChdbConnectionPool(directory);
  const { acquire, prelude, run } = pool;
  const served = { insert: 0, stream: 0, statement: 0, error: 0 };

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
      await streamRead(pool.native, connection, sql, format, bound, response, compressResponse);
      failed = false;
    } finally {
      // After a failure the connection's settings may not be what `prelude` recorded (a SET that
      // failed): it is closed, not reused. Its calls have all returned by now.
      pool.release(connection, failed);
    }
  }

  // The client sends bound parameters in the URL: a server takes URLs up to http_max_uri_size (1 MiB),
  // where Node's default (16 KiB of headers) answered a long id list with an empty 431.
  const server: Server = createServer({ maxHeaderSize: HTTP_MAX_URI_SIZE }, (request, response) => {
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
      await pool.close();
      unlock();
    },
  };
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

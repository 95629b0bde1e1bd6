import { lockDirectory } from '@analytics/directory-lock';
import { randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import { AddressInfo } from 'node:net';
import { setPriority } from 'node:os';
import { resolve } from 'node:path';
import { createChdbConnectionPool, PooledConnection } from './clickhouse-stand-in/chdb-connection-pool';
import { streamRead } from './clickhouse-stand-in/chdb-streamed-read';
import {
  BINARY_FORMATS,
  DATA_INSERT,
  EngineError,
  EXPLICIT_FORMAT,
  HTTP_MAX_URI_SIZE,
  MAX_INSERT_BYTES,
  RAW_INSERT_FORMATS,
  ParsedRequest,
  readForm,
  readRequest,
  READS,
  readWhole,
  send,
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
 * Also served: a multipart/form-data body whose fields are more parameters (`query`, `param_<name>`:
 * how parameters too long for a URL are sent). Not served: sessions (`session_id`), external tables
 * (form files), progress headers, auth (any user).
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

export async function startClickHouseStandIn(options: {
  directory: string;
  port?: number;
  host?: string;
}): Promise<ClickHouseStandIn> {
  const directory = resolve(options.directory);
  mkdirSync(directory, { recursive: true });
  // As createClickHouseClient does for chdb: URLs: one process per chDB directory.
  const unlock = lockDirectory(directory);
  const pool = createChdbConnectionPool(directory);
  const served = { insert: 0, stream: 0, statement: 0, error: 0 };

  /** An INSERT whose rows are the body (`insert`: the statement's table, columns and format), through chDB's raw insert. */
  async function serveInsert(
    connection: PooledConnection,
    insert: RegExpExecArray,
    request: ParsedRequest,
    response: ServerResponse,
  ): Promise<void> {
    const rows = await readWhole(request.body, MAX_INSERT_BYTES);
    await pool.configure(connection, new Map(), request.database);
    served.insert++;
    let result = { rowsWritten: 0, bytesWritten: 0, elapsed: 0 };
    // The client sends an empty body for nothing to insert; ClickHouse answers that with success.
    if (rows.length) {
      try {
        result = await connection.session.insert({
          table: insert[1].replace(/[`"]/g, ''),
          format: insert[3] as 'JSONEachRow',
          values: rows,
          ...(insert[2] ? { columns: insert[2].split(',').map((column) => column.trim().replace(/[`"]/g, '')) } : {}),
          settings: Object.fromEntries(request.settings),
        });
      } catch (error) {
        throw EngineError.from(error);
      }
    }
    response.setHeader(
      'X-ClickHouse-Summary',
      JSON.stringify(
        summary({
          written_rows: result.rowsWritten,
          written_bytes: result.bytesWritten,
          elapsed_ns: result.elapsed * 1e9,
        }),
      ),
    );
    response.end();
  }

  /** Any other statement: a read streamed as chDB produces it, anything else run as one call. */
  async function serveQuery(
    connection: PooledConnection,
    request: ParsedRequest,
    response: ServerResponse,
  ): Promise<void> {
    // The query is the URL's `query`, the body, or both (a POST's body continues the URL's query).
    const body =
      request.query && request.method !== 'POST' ? '' : (await readWhole(request.body, MAX_INSERT_BYTES)).toString();
    const sql = [request.query, body].filter(Boolean).join('\n').trim().replace(/;\s*$/, '');
    if (!sql) throw new EngineError('Code: 62. DB::Exception: Empty query. (SYNTAX_ERROR)', 62);
    const format = EXPLICIT_FORMAT.exec(sql)?.[1] ?? request.defaultFormat;
    response.setHeader('X-ClickHouse-Format', format);
    response.setHeader('X-ClickHouse-Timezone', 'UTC');
    await pool.configure(connection, request.settings, request.database);
    const bound = Object.keys(request.params).length ? request.params : undefined;
    if (READS.test(sql)) {
      served.stream++;
      await streamRead(pool.native, connection, sql, format, bound, response, request.gzipResponse);
      return;
    }
    served.statement++;
    const result = await pool.run(connection, sql, format, bound);
    response.setHeader(
      'X-ClickHouse-Summary',
      JSON.stringify(
        summary({ read_rows: result.rowsRead, read_bytes: result.bytesRead, elapsed_ns: result.elapsed * 1e9 }),
      ),
    );
    await send(response, request.gzipResponse, Buffer.from(result.bytes()));
  }

  async function handle(incoming: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(incoming.url ?? '/', 'http://stand-in');
    if (
      url.pathname === '/ping' ||
      (incoming.method === 'GET' && url.pathname === '/' && !url.searchParams.has('query'))
    ) {
      response.end('Ok.\n');
      return;
    }
    response.setHeader('X-ClickHouse-Query-Id', url.searchParams.get('query_id') || randomUUID());
    response.setHeader('X-ClickHouse-Server-Display-Name', 'chdb-stand-in');
    const request = readRequest(incoming, url);
    if (request.formBoundary) await readForm(request);
    const insert = request.query ? DATA_INSERT.exec(request.query) : null;
    if (insert && BINARY_FORMATS.test(insert[3]))
      throw new EngineError(
        `Code: 48. DB::Exception: the stand-in takes INSERT rows in text formats only, not ${insert[3]}. (NOT_IMPLEMENTED)`,
        48,
      );
    const connection = pool.acquire();
    try {
      if (insert && RAW_INSERT_FORMATS.has(insert[3]) && !/\bSETTINGS\b/i.test(request.query))
        await serveInsert(connection, insert, request, response);
      else await serveQuery(connection, request, response);
    } catch (error) {
      // After a failure the connection's settings may not be what `configure` recorded (a SET that
      // failed): it is closed, not reused. Its calls have all returned by now.
      pool.release(connection, true);
      throw error;
    }
    pool.release(connection, false);
  }

  // Bound parameters travel in the URL up to 4 KiB (longer ones in a form body): a server takes URLs up to
  // http_max_uri_size (1 MiB), where Node's default (16 KiB of headers) answered a long id list with an empty 431.
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

/**
 * As a process of its own (the benches): CLICKHOUSE_STANDIN_DIR, CLICKHOUSE_STANDIN_PORT, CLICKHOUSE_STANDIN_NICE
 * (the engine threads' Linux nice value); prints its port when listening.
 */
if (require.main === module) {
  const dir = process.env.CLICKHOUSE_STANDIN_DIR;
  if (!dir) throw new Error('CLICKHOUSE_STANDIN_DIR is required');
  // A thread's nice value passes to the threads it starts: chDB's query, insert and merge threads, started
  // later, take it (the few started while chDB loads, and V8's, keep 0).
  const nice = Number(process.env.CLICKHOUSE_STANDIN_NICE ?? 0);
  if (nice) setPriority(nice);
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

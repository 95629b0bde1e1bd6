import { ServerResponse } from 'node:http';
import { createGzip } from 'node:zlib';
import { ChdbNative, PooledConnection } from './chdb-connection-pool';
import { drained, EngineError, summary } from './http-interface';

/**
 * A read, chunk by chunk as chDB produces them: the next chunk is fetched when the socket has
 * taken the last one, and a client that goes away cancels the query. The first chunk is fetched
 * before the headers go, so an error at the start is an HTTP 500 as from ClickHouse; one later
 * can only cut the response short, which the client reports as an error too.
 */
export async function streamRead(
  native: ChdbNative,
  connection: PooledConnection,
  sql: string,
  format: string,
  params: Record<string, string> | undefined,
  response: ServerResponse,
  gzip: boolean,
): Promise<void> {
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

import { ClickHouseClient } from '@clickhouse/client';
import { chdbHandleOf } from './chdb-handles';
import { abortedRequestError } from './create-clickhouse-client';

/** A piece of a streamed result: the bytes as the engine formatted them, ending on a row boundary. */
export interface ResultChunk {
  bytes: Buffer;
  /** Rows in `bytes` when the engine says so (chDB); undefined from a server, whose chunks are arbitrary. */
  rows?: number;
}

export interface StreamQueryParams {
  /** A SELECT without a FORMAT clause. */
  query: string;
  query_params?: Record<string, unknown>;
  /** A row-per-line output format, e.g. TabSeparatedRaw or JSONEachRow. */
  format: string;
  abort_signal?: AbortSignal;
}

/**
 * Streams a query's output as the engine produces it: the next chunk is computed only when the
 * consumer asks for it (backpressure), and leaving the loop or aborting `abort_signal` cancels the
 * query. From a server this is @clickhouse/client's `exec` stream. chDB's `exec` materializes the
 * whole result as one buffer, so there the query runs through chDB's native stream, on a
 * connection of its own to the same directory: chDB allows one stream per connection, and the
 * client's connection keeps serving every other query meanwhile.
 */
export async function* streamQuery(client: ClickHouseClient, params: StreamQueryParams): AsyncGenerator<ResultChunk> {
  const directory = chdbHandleOf(client)?.directory;
  if (directory === undefined) {
    const result = await client.exec({
      query: `${params.query} FORMAT ${params.format}`,
      query_params: params.query_params,
      abort_signal: params.abort_signal,
    });
    // The client stops watching the signal once the response has begun: a later abort ends the stream here.
    const signal = params.abort_signal;
    const onAbort = () => result.stream.destroy(abortedRequestError());
    signal?.addEventListener('abort', onAbort, { once: true });
    if (signal?.aborted) onAbort();
    try {
      for await (const bytes of result.stream) yield { bytes: bytes as Buffer };
    } finally {
      signal?.removeEventListener('abort', onAbort);
      result.stream.destroy();
    }
    return;
  }
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on first use (see above)
  const { Session } = require('chdb') as typeof import('chdb');
  const session = new Session(directory);
  try {
    const stream = session.queryStreamBind(params.query, params.query_params ?? {}, {
      format: params.format,
      signal: params.abort_signal,
    });
    try {
      for await (const chunk of stream) {
        const raw = chunk.raw();
        yield { bytes: Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength), rows: chunk.numRows };
      }
    } finally {
      stream.cancel();
    }
  } finally {
    // Deferred by chDB until a fetch still running on this connection lands.
    session.close();
  }
}

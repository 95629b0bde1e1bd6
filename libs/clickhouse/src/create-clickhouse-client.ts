import { ClickHouseClient, ClickHouseClientConfigOptions, createClient } from '@clickhouse/client';
import { lockDirectory } from '@analytics/directory-lock';
import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseClickHouseUrl } from './clickhouse-url';
import { rememberChdb } from './chdb-handles';
import { sendLargeParamsInBody } from './params-in-body';

/**
 * Both backends answer alike: 64-bit integers as JSON numbers (chDB's default; counts stay numbers
 * in JavaScript). Values that need more than 53 bits are selected as strings where they occur.
 */
const CLICKHOUSE_SETTINGS = { output_format_json_quote_64bit_integers: 0 } as const;

/**
 * chDB applies a call's settings as SET statements on its one session, where they stay. So every
 * chDB call restates each setting some call of ours changes (at ClickHouse's default unless the call
 * gives it): a query's time limit or an insert's dedup token never leaks into the next call.
 * A setting a call sets must be listed here.
 */
export const CHDB_CALL_DEFAULTS = {
  max_execution_time: 0,
  max_memory_usage: '0',
  max_bytes_before_external_group_by: '0',
  max_bytes_before_external_sort: '0',
  insert_deduplicate: 1,
  insert_deduplication_token: '',
  async_insert: 0,
  max_partitions_per_insert_block: '100',
  input_format_json_read_objects_as_strings: 1,
  lightweight_deletes_sync: '2',
  // chDB's own default (a server's is 0): its mutations finish before the call returns unless a call asks otherwise.
  mutations_sync: '1',
} as const;

/**
 * The in-process engine shares the app's cores: parsing an insert on one thread costs about 0.6 µs
 * less CPU per row than splitting it across parser threads
 * (docs/benchmarks/2026-11-25-writer-insert-settings.md). In the raw insert's own SETTINGS clause only;
 * a server keeps its defaults.
 */
const CHDB_RAW_INSERT_DEFAULTS = { input_format_parallel_parsing: 0 } as const;

function openChdb(path: string): ClickHouseClient {
  const directory = resolve(path);
  const unlock = lockDirectory(directory);
  try {
    mkdirSync(directory, { recursive: true });
    // Loaded only when asked for: chDB is an optional dependency, absent from the server image.
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on first use (see above)
    const { createChdbConnection } = require('chdb/connection') as typeof import('chdb/connection');
    const chdbConnection = createChdbConnection({ path: directory });
    // chDB types the connection against its own copy of @clickhouse/client-common; the contract is the same.
    const connection = chdbConnection as unknown as ClickHouseClientConfigOptions['connection'];
    const client = createClient({ connection, clickhouse_settings: { ...CLICKHOUSE_SETTINGS, ...CHDB_CALL_DEFAULTS } });
    rememberChdb(client, {
      directory,
      // The raw insert's settings go in its own SETTINGS clause, which lasts for that statement only;
      // the defaults are restated since earlier calls' SETs stay on the session.
      rawInsert: ({ settings, ...insert }) =>
        chdbConnection.chdb.rawInsert({
          ...insert,
          settings: { ...CHDB_CALL_DEFAULTS, ...CHDB_RAW_INSERT_DEFAULTS, ...settings },
        }),
    });
    const close = client.close.bind(client);
    client.close = async () => {
      await close();
      unlock();
    };
    return client;
  } catch (error) {
    unlock();
    throw error;
  }
}

/**
 * A server keeps computing a SELECT whose HTTP client went away (a report's caller disconnected, a
 * query past its signal) until it finishes or hits max_execution_time, unless told to cancel it.
 */
const SERVER_SETTINGS = { ...CLICKHOUSE_SETTINGS, cancel_http_readonly_queries_on_client_close: 1 } as const;

/** What @clickhouse/client fails a request with when its signal aborts: ours say the same. */
export const abortedRequestError = () => new Error('The user aborted a request.');

/**
 * @clickhouse/client listens for a signal's next 'abort' only: a call whose signal has aborted
 * already would still be sent. It fails as an abort during the request does, without reaching the server.
 */
function refuseAbortedCalls(client: ClickHouseClient): ClickHouseClient {
  for (const method of ['query', 'command', 'exec', 'insert'] as const) {
    const send = client[method].bind(client) as (params: { abort_signal?: AbortSignal }) => Promise<unknown>;
    (client as unknown as Record<string, unknown>)[method] = (params: { abort_signal?: AbortSignal }) =>
      params.abort_signal?.aborted ? Promise.reject(abortedRequestError()) : send(params);
  }
  return client;
}

/** `chdb:<dir>` opens the engine in-process (one process per directory); a URL connects to a server. */
export function createClickHouseClient(clickhouseUrl: string): ClickHouseClient {
  const target = parseClickHouseUrl(clickhouseUrl);
  if (target.kind === 'chdb') return openChdb(target.path);
  const client = createClient({
    url: target.url,
    username: target.username,
    password: target.password,
    database: target.database,
    clickhouse_settings: SERVER_SETTINGS,
    // Parameters too long for a URL go in the body (params-in-body.ts does the same for exec and command).
    use_multipart_params_auto: true,
  });
  return refuseAbortedCalls(sendLargeParamsInBody(client));
}

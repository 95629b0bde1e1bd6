import { dirname, join } from 'node:path';
import { EngineError } from './http-interface';

/**
 * The stand-in's chDB side: one data directory, opened by this process. Each request runs on a
 * chDB connection of its own, taken from a pool: chDB keeps SET statements on a connection, so a
 * connection restores (SET … = DEFAULT) what its previous request changed before it runs the next
 * one, and one streaming cursor per connection is all chDB allows.
 */

/** chDB's native addon, used where its JavaScript layer would re-escape values the client already escaped. */
export interface ChdbNative {
  QueryAsyncConnection(
    connection: unknown,
    sql: string,
    format: string,
    params?: Record<string, string>,
  ): Promise<unknown>;
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

/** One chDB connection with what the previous request left on it. */
export interface PooledConnection {
  session: ChdbSession;
  /** Settings a request SET on this connection, to be restored before the next one. */
  changed: Set<string>;
  database: string;
}

const quote = (value: string) => `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;

export interface ChdbConnectionPool {
  /** The addon, for the streamed read. */
  native: ChdbNative;
  acquire(): PooledConnection;
  /** Makes the connection what this request asks for: its settings, the others back to their defaults, its database. */
  configure(connection: PooledConnection, settings: Map<string, string>, database: string): Promise<void>;
  run(
    connection: PooledConnection,
    sql: string,
    format: string,
    params?: Record<string, string>,
  ): Promise<ChdbResultView>;
  /** Back to the idle connections, or closed after a failed request. */
  release(connection: PooledConnection, failed: boolean): void;
  /** Once every connection is idle (or after 10 s), all of them closed. */
  close(): Promise<void>;
}

/** The pool on `directory`, which the caller has locked for this process. */
export function createChdbConnectionPool(directory: string): ChdbConnectionPool {
  const { chdb, native, toResult } = loadChdb();
  const idle: PooledConnection[] = [];
  const all: PooledConnection[] = [];
  const run = async (connection: PooledConnection, sql: string, format: string, params?: Record<string, string>) => {
    try {
      return toResult(await native.QueryAsyncConnection(connection.session.connection, sql, format, params));
    } catch (error) {
      throw EngineError.from(error);
    }
  };
  return {
    native,
    acquire() {
      const pooled = idle.pop();
      if (pooled) return pooled;
      const created = { session: new chdb.Session(directory), changed: new Set<string>(), database: 'default' };
      all.push(created);
      return created;
    },
    async configure(connection, settings, database) {
      const statements: string[] = [];
      for (const name of connection.changed) if (!settings.has(name)) statements.push(`SET ${name} = DEFAULT`);
      for (const [name, value] of settings) statements.push(`SET ${name} = ${quote(value)}`);
      connection.changed = new Set(settings.keys());
      if (database !== connection.database) {
        statements.push(`USE ${database}`);
        connection.database = database;
      }
      if (statements.length) await run(connection, statements.join('; '), 'TabSeparated');
    },
    run,
    release(connection, failed) {
      if (failed) {
        all.splice(all.indexOf(connection), 1);
        connection.session.close();
      } else idle.push(connection);
    },
    async close() {
      // A request cut short still has its chDB call running: closing its connection under it aborts the engine.
      for (const deadline = Date.now() + 10_000; idle.length < all.length && Date.now() < deadline;)
        await new Promise((wait) => setTimeout(wait, 20));
      for (const connection of all.splice(0)) connection.session.close();
    },
  };
}

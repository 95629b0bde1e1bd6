import { Logger } from '@nestjs/common';
import { SQL, sql } from 'drizzle-orm';
import { drizzle as drizzleNodePostgres } from 'drizzle-orm/node-postgres';
import { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { Pool } from 'pg';
import { parseDatabaseUrl } from './database-url';
import { lockDirectory } from '@analytics/directory-lock';

/** The typed query layer; the same drizzle API on node-postgres and on PGlite. */
export type Database = PgDatabase<PgQueryResultHKT, Record<string, unknown>>;

/** Runs raw SQL and returns its rows: the result shapes of both drivers carry `rows`. */
export async function selectRows<T>(db: Database, query: SQL): Promise<T[]> {
  const result = (await db.execute(query)) as { rows: T[] };
  return result.rows;
}

/** The relational store: a drizzle database over a Postgres server or PGlite, and how to close it. */
export class Postgres {
  private constructor(
    readonly db: Database,
    readonly driver: 'server' | 'pglite',
    private readonly release: () => Promise<void>,
    private readonly embedded?: { dumpDataDir(compression: 'gzip'): Promise<Blob> },
  ) {}

  /**
   * `loadDataDir`: a data directory as {@link dumpDataDir} wrote it, unpacked into an empty PGlite directory
   * before it opens (a restore).
   */
  static async connect(databaseUrl: string, options: { loadDataDir?: Blob } = {}): Promise<Postgres> {
    const target = parseDatabaseUrl(databaseUrl);
    if (target.kind === 'server') {
      // A bounded wait for a connection: with the server gone, requests fail fast instead of hanging.
      const pool = new Pool({ connectionString: target.url, max: 10, connectionTimeoutMillis: 10_000 });
      // An idle connection ended under us (restart, failover) is an 'error' event; unheard, it would end
      // the process. The pool drops that connection and opens a new one for the next query.
      const logger = new Logger('Postgres');
      pool.on('error', (error) =>
        logger.warn(`an idle connection was lost (${error.message}); the next query opens a new one`),
      );
      return new Postgres(drizzleNodePostgres({ client: pool }) as unknown as Database, 'server', () => pool.end());
    }
    // Loaded only when asked for: PGlite is an optional dependency, absent from the server image.
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on first use (see above)
    const { PGlite } = require('@electric-sql/pglite') as typeof import('@electric-sql/pglite');
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on first use (see above)
    const { drizzle: drizzlePglite } = require('drizzle-orm/pglite') as typeof import('drizzle-orm/pglite');
    if (target.path === 'memory:') {
      const client = await PGlite.create();
      return new Postgres(drizzlePglite({ client }) as unknown as Database, 'pglite', () => client.close());
    }
    const directory = resolve(target.path);
    const unlock = lockDirectory(directory);
    try {
      mkdirSync(directory, { recursive: true });
      const client = await PGlite.create(directory, { loadDataDir: options.loadDataDir });
      const release = async () => {
        await client.close();
        unlock();
      };
      return new Postgres(drizzlePglite({ client }) as unknown as Database, 'pglite', release, client);
    } catch (error) {
      unlock();
      throw error;
    }
  }

  /** Whether {@link dumpDataDir} can copy this database: PGlite on a directory. */
  get dumpable(): boolean {
    return this.embedded !== undefined;
  }

  /**
   * The embedded database's whole data directory as one gzipped tar, consistent: PGlite runs every query of the
   * process on its one connection, so none runs while it is written. Only for PGlite on a directory.
   */
  dumpDataDir(): Promise<Blob> {
    if (!this.embedded) throw new Error('only an embedded database (DATABASE_URL=pglite:<directory>) can be dumped');
    return this.embedded.dumpDataDir('gzip');
  }

  async ping(): Promise<void> {
    await this.db.execute(sql`select 1`);
  }

  close(): Promise<void> {
    return this.release();
  }
}

import { Postgres } from '@analytics/postgres';
import type { PGlite } from '@electric-sql/pglite';
import type { Pool, PoolClient } from 'pg';
import { Db, fromPglite, PGliteLike } from 'pg-boss';

/** What pg-boss runs its SQL through, and which of its backend profiles that connection needs. */
export interface JobDatabase {
  db: Db;
  backend: 'postgres' | 'pglite';
}

/**
 * pg-boss over the project's own connection (the drizzle client's pool, or the one PGlite), so jobs
 * open no second pool and, on PGlite, no second instance over the same directory (which would
 * corrupt it).
 */
export function jobDatabaseOf(postgres: Postgres): JobDatabase {
  const client = (postgres.db as unknown as { $client: unknown }).$client;
  if (postgres.driver === 'pglite')
    return { db: fromPglite(isolatedTransactions(client as PGlite)), backend: 'pglite' };
  return { db: poolDatabase(client as Pool), backend: 'postgres' };
}

/**
 * pg-boss sends its multi-statement blocks (`BEGIN; …; COMMIT`) as one simple query with no
 * parameters; a parameterised statement is always a single one, so it goes as a prepared query.
 * A block that fails leaves its session in an aborted transaction, and a failed statement's
 * connection is discarded (as `pool.query` does), so no later query inherits that state.
 */
function poolDatabase(pool: Pool): Db {
  // Only a test clock sets these (pg-boss reads them to fake the database's now()).
  let sessionStatements: string[] = [];
  return {
    async executeSql(text: string, values?: unknown[]) {
      if (!sessionStatements.length) return pool.query(text, values);
      const client: PoolClient = await pool.connect();
      let failure: Error | undefined;
      try {
        for (const statement of sessionStatements) await client.query(statement);
        return await client.query(text, values);
      } catch (error) {
        failure = error as Error;
        throw error;
      } finally {
        client.release(failure);
      }
    },
    async setSessionStatements(statements: string[]) {
      sessionStatements = statements;
    },
  };
}

const OPENS_TRANSACTION = /^\s*BEGIN\s*;/i;

/**
 * PGlite is one session shared by the whole process. When one of pg-boss's `BEGIN; …; COMMIT`
 * blocks fails, the session stays in an aborted transaction until a ROLLBACK, and pg-boss's PGlite
 * adapter sends that ROLLBACK as a separate call: any query of the application queued in between
 * fails with "current transaction is aborted" (the integration spec shows both). Running the
 * block inside PGlite's `transaction()` keeps the session locked until it is rolled back. The
 * block's own BEGIN and COMMIT then only draw warnings from Postgres; its statements are unchanged.
 */
function isolatedTransactions(pglite: PGlite): PGliteLike {
  return {
    query: (text, params) => pglite.query(text, params),
    exec: (text) => (OPENS_TRANSACTION.test(text) ? pglite.transaction((tx) => tx.exec(text)) : pglite.exec(text)),
    listen: (channel, callback) => pglite.listen(channel, callback),
  };
}

import { createTestDatabase, TestResource } from '@analytics/testing';
import { sql } from 'drizzle-orm';
import { Client } from 'pg';
import { Postgres } from '../src';

/**
 * A Postgres restart (or a failover, or an idle-connection reaper) ends the pool's idle connections
 * under it. That must cost the process nothing: the broken connections are dropped and the next
 * query opens a new one. Without an 'error' listener on the pool, node-postgres' idle-client error
 * is an uncaught exception that ends the whole service.
 */
describe('Postgres connection loss', () => {
  let database: TestResource;
  let postgres: Postgres;

  beforeAll(async () => {
    database = await createTestDatabase('server');
    postgres = await Postgres.connect(database.url);
  });
  afterAll(async () => {
    await postgres.close();
    await database.dispose();
  });

  async function terminateConnections(): Promise<number> {
    const admin = new Client({ connectionString: process.env.TEST_POSTGRES_ADMIN_URL });
    await admin.connect();
    try {
      const name = new URL(database.url).pathname.slice(1);
      const result = await admin.query(
        'select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()',
        [name],
      );
      return result.rowCount ?? 0;
    } finally {
      await admin.end();
    }
  }

  it('survives its idle connections being terminated, and the next queries work', async () => {
    // Several idle connections in the pool, as a busy service has.
    await Promise.all(Array.from({ length: 4 }, () => postgres.db.execute(sql`select pg_sleep(0.05)`)));
    expect(await terminateConnections()).toBeGreaterThan(0);
    // The pool learns of the loss asynchronously; give its 'error' events a moment to fire.
    await new Promise((resolve) => setTimeout(resolve, 300));
    const rows = await Promise.all(Array.from({ length: 4 }, () => postgres.db.execute(sql`select 1 as one`)));
    expect(rows.map((r) => (r as unknown as { rows: { one: number }[] }).rows[0].one)).toEqual([1, 1, 1, 1]);
  });
});

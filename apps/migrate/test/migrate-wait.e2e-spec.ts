import { createTestEnvironment, spawnService, TestEnvironment } from '@analytics/testing';

/** `migrate --wait`, the built app as the init containers run it, on real engines. */
describe('migrate --wait', () => {
  let environment: TestEnvironment;

  beforeAll(async () => {
    environment = await createTestEnvironment({ env: { MIGRATE_WAIT_TIMEOUT_MS: '1000' } });
  });
  afterAll(() => environment.dispose());

  it('exits 1 naming the ledger behind once the timeout passed, applying nothing; 0 once migrate has run', async () => {
    const early = spawnService('migrate', environment.env, ['--wait']);
    expect(await early.exited).toBe(1);
    expect(early.output()).toMatch(
      /Waiting for migrations failed: the schema is still not this build's after 1000 ms: Postgres schema lacks migration 1, 2, .*run migrate; ClickHouse schema lacks migration 1, 2, .*run migrate/,
    );

    // Still nothing applied: the wait only reads.
    const migrate = spawnService('migrate', environment.env);
    expect(await migrate.exited).toBe(0);
    expect(migrate.output()).toMatch(/Postgres: applied 1_\S+, .*\(0 already applied\)/);

    const late = spawnService('migrate', environment.env, ['--wait']);
    expect(await late.exited).toBe(0);
    expect(late.output()).toContain("Postgres and ClickHouse hold this build's migrations");
  }, 240_000); // three processes, each loading Nest and the engines
});

import { ClickHouseMigrator } from '@analytics/clickhouse';
import { PostgresMigrator } from '@analytics/postgres';
import { CLICKHOUSE_MIGRATIONS, PlatformModule, schemaLag, waitForSchema } from '@analytics/runtime';
import { createTestEnvironment, eventually, startTestApp, TestApp, TestEnvironment } from '@analytics/testing';

/** A service whose engines' ledgers lack this build's migrations (MIGRATE_ON_START=false, no Job yet). */
describe('schema readiness', () => {
  let environment: TestEnvironment;
  let service: TestApp;

  beforeAll(async () => {
    environment = await createTestEnvironment({ env: { MIGRATE_ON_START: 'false' } });
    service = await startTestApp(
      (config) => PlatformModule.forRoot(config, { clickhouse: true, postgres: true }),
      environment.config,
    );
  });
  afterAll(async () => {
    await service.close();
    await environment.dispose();
  });

  const lag = () => schemaLag(service.app.get(PostgresMigrator), service.app.get(ClickHouseMigrator));

  it('is not ready on an older schema, says which ledger lags, and is ready once the migrations ran', async () => {
    const before = await fetch(`${service.baseUrl}/readyz`);
    expect(before.status).toBe(503);
    expect(await before.json()).toMatchObject({
      status: 'error',
      info: { clickhouse: { status: 'up' }, postgres: { status: 'up' } },
      error: {
        schema: {
          status: 'down',
          message: expect.stringMatching(
            /^Postgres schema lacks migration 1, .* run migrate; ClickHouse schema lacks migration 1, .* run migrate$/,
          ),
        },
      },
    });
    await expect(waitForSchema(lag, { timeoutMs: 1_000, intervalMs: 200 })).rejects.toThrow(
      /^the schema is still not this build's after 1000 ms: Postgres schema lacks migration 1, /,
    );

    const waiting = waitForSchema(lag, { timeoutMs: 60_000, intervalMs: 100 });
    await service.app.get(PostgresMigrator).migrate();
    expect((await fetch(`${service.baseUrl}/readyz`)).status).toBe(503); // ClickHouse still lags
    await service.app.get(ClickHouseMigrator).migrate(CLICKHOUSE_MIGRATIONS);
    await expect(waiting).resolves.toBeUndefined();
    await eventually(async () => expect((await fetch(`${service.baseUrl}/readyz`)).status).toBe(200));
    expect(await lag()).toEqual([
      expect.objectContaining({ engine: 'Postgres', missing: [] }),
      expect.objectContaining({ engine: 'ClickHouse', missing: [] }),
    ]);
  });
});

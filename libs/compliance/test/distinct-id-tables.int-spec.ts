import { ClickHouseClient } from '@analytics/clickhouse';
import { AppConfig } from '@analytics/config';
import { JobsModule } from '@analytics/jobs';
import { Postgres, selectRows } from '@analytics/postgres';
import { PlatformModule } from '@analytics/runtime';
import { engineNeeds } from '@analytics/service-map';
import { createTestEnvironment, startTestApp, TestApp, TestEnvironment } from '@analytics/testing';
import { DynamicModule } from '@nestjs/common';
import { sql } from 'drizzle-orm';
import { ComplianceModule } from '../src';
import { DISTINCT_ID_TABLES, IDENTITY_COLUMNS } from '../src/distinct-id-tables';

const root = (config: AppConfig): DynamicModule => ({
  module: class RegistryTestModule {},
  imports: [
    PlatformModule.forRoot(config, engineNeeds(config, ['compliance'])),
    JobsModule.forRoot(),
    ComplianceModule.forRoot(),
  ],
});

/**
 * The deletion registry names every table holding a distinct id: after every migration of both
 * engines (and the compliance lib's own table), each identity column found is in the registry, and
 * the registry names nothing that does not exist. A migration adding such a table fails this test
 * until the registry (and so deletions and retrievals) covers it.
 */
describe('the registry of tables that hold a distinct id', () => {
  let environment: TestEnvironment;
  let app: TestApp;

  beforeAll(async () => {
    environment = await createTestEnvironment();
    app = await startTestApp(root, environment.config);
  });
  afterAll(async () => {
    await app?.close();
    await environment?.dispose();
  });

  const named = (engine: string) =>
    DISTINCT_ID_TABLES.filter((t) => t.engine === engine)
      .map((t) => `${t.table}.${t.column}`)
      .sort();

  it('covers every ClickHouse table with an identity column', async () => {
    const result = await app.app.get(ClickHouseClient).query({
      query:
        'SELECT table, name FROM system.columns WHERE database = currentDatabase() AND name IN {names:Array(String)}',
      query_params: { names: IDENTITY_COLUMNS },
      format: 'JSONEachRow',
    });
    // On a cluster the rows live in `<table>_local`, read through the Distributed `<table>`.
    const found = [
      ...new Set(
        (await result.json<{ table: string; name: string }>()).map(
          (c) => `${c.table.replace(/_local$/, '')}.${c.name}`,
        ),
      ),
    ].sort();
    expect(found).toEqual(named('clickhouse'));
  });

  it('covers every Postgres table with an identity column', async () => {
    const rows = await selectRows<{ table_name: string; column_name: string }>(
      app.app.get(Postgres).db,
      sql`select table_name, column_name from information_schema.columns
          where table_schema = current_schema() and column_name in (select jsonb_array_elements_text(${JSON.stringify(IDENTITY_COLUMNS)}::jsonb))`,
    );
    expect(rows.map((c) => `${c.table_name}.${c.column_name}`).sort()).toEqual(named('postgres'));
  });
});

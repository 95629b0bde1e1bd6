import { ClickHouseDdl, ClickHouseMigration, ClickHouseMigrator } from '@analytics/clickhouse';
import { useTestClickHouseClient } from '@analytics/testing';
import { CLICKHOUSE_MIGRATIONS } from '../src';

const latest = CLICKHOUSE_MIGRATIONS.at(-1)!.version;

/**
 * A next migration whose second statement fails (a table that is not there). ClickHouse has no
 * transactions: its first statement stays done, which is why every statement is idempotent.
 */
const halfDone = (fails: boolean): ClickHouseMigration => ({
  version: latest + 1,
  name: 'half_done',
  async up({ client }) {
    await client.command({ query: 'CREATE TABLE IF NOT EXISTS half_done (id UInt32) ENGINE = MergeTree ORDER BY id' });
    const target = fails ? 'no_such_table' : 'half_done';
    await client.command({ query: `ALTER TABLE ${target} ADD COLUMN IF NOT EXISTS note String DEFAULT 'mended'` });
  },
});

describe('ClickHouse migrations are safe to re-run and to repeat after a failure', () => {
  const clickhouse = useTestClickHouseClient();
  const migrator = () => new ClickHouseMigrator(clickhouse.client, new ClickHouseDdl());
  const rows = async <T>(query: string) => (await clickhouse.client.query({ query, format: 'JSONEachRow' })).json<T>();
  const state = async () => ({
    ledger: await rows('SELECT version, name, applied_at FROM schema_migrations ORDER BY version'),
    columns: await rows(
      'SELECT table, name, type FROM system.columns WHERE database = currentDatabase() ORDER BY table, name',
    ),
    events: await rows('SELECT project_id, event, distinct_id, insert_id FROM events ORDER BY insert_id'),
  });
  const storeEvent = (insertId: string) =>
    clickhouse.client.insert({
      table: 'events',
      values: [
        {
          project_id: 1,
          event: 'Signed up',
          time: '2026-11-20 10:00:00.000',
          distinct_id: 'u-1',
          insert_id: insertId,
          properties: '{}',
          processed_at: '2026-11-20 10:00:01.000',
        },
      ],
      format: 'JSONEachRow',
    });

  beforeAll(async () => {
    await migrator().migrate(CLICKHOUSE_MIGRATIONS);
    await storeEvent('before');
  });

  it('re-running every migration on an up-to-date database changes nothing', async () => {
    const before = await state();
    expect(await migrator().migrate(CLICKHOUSE_MIGRATIONS)).toEqual({
      engine: 'ClickHouse',
      applied: [],
      alreadyApplied: CLICKHOUSE_MIGRATIONS.length,
    });
    expect(await state()).toEqual(before);
  });

  it('a migration failing midway is not recorded, and the earlier tables keep working', async () => {
    const before = await state();
    await expect(migrator().migrate([...CLICKHOUSE_MIGRATIONS, halfDone(true)])).rejects.toThrow(
      new RegExp(`^ClickHouse migration ${latest + 1} \\(half_done\\) failed: .*no_such_table`),
    );
    expect((await state()).ledger).toEqual(before.ledger);
    await storeEvent('after');
    expect((await state()).events.map((e: any) => e.insert_id)).toEqual(['after', 'before']);
  });

  it('the mended migration then completes, repeating the statement that had already run', async () => {
    const report = await migrator().migrate([...CLICKHOUSE_MIGRATIONS, halfDone(false)]);
    expect(report.applied).toEqual([`${latest + 1}_half_done`]);
    expect(
      await rows(
        "SELECT name FROM system.columns WHERE database = currentDatabase() AND table = 'half_done' ORDER BY name",
      ),
    ).toEqual([{ name: 'id' }, { name: 'note' }]);
  });

  it('refuses a ledger written by a newer release before running anything', async () => {
    const before = await state();
    await expect(migrator().migrate(CLICKHOUSE_MIGRATIONS)).rejects.toThrow(
      `ClickHouse schema holds migration ${latest + 1}, which this release does not know (its latest is ${latest})`,
    );
    expect(await state()).toEqual(before);
  });
});

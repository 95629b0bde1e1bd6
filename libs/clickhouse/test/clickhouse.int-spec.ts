import { ClickHouseDdl, ClickHouseMigrator } from '@analytics/clickhouse';
import { CLICKHOUSE_MIGRATIONS } from '@analytics/runtime';
import { useTestClickHouseClient } from '@analytics/testing';

describe('ClickHouse (real engine)', () => {
  const clickhouse = useTestClickHouseClient();

  const rows = async <T>(query: string, query_params?: Record<string, unknown>) =>
    (await clickhouse.client.query({ query, query_params, format: 'JSONEachRow' })).json<T>();

  it('applies migrations once; a second run changes nothing', async () => {
    const migrator = new ClickHouseMigrator(clickhouse.client, new ClickHouseDdl());
    const first = await migrator.migrate(CLICKHOUSE_MIGRATIONS);
    const tablesAfterFirst = await rows<{ name: string }>(
      'SELECT name FROM system.tables WHERE database = currentDatabase() ORDER BY name',
    );
    const second = await migrator.migrate(CLICKHOUSE_MIGRATIONS);
    expect(first.applied).toContain('1_events');
    expect(second.applied).toEqual([]);
    expect(await rows('SELECT name FROM system.tables WHERE database = currentDatabase() ORDER BY name')).toEqual(
      tablesAfterFirst,
    );
    expect(await rows('SELECT count() AS c FROM schema_migrations')).toEqual([{ c: first.applied.length }]);
  });

  it("keeps one call's settings to that call: a time limit, a dedup token or an asynchronous mutation never reaches the next", async () => {
    const setting = async (name: string) =>
      (await rows<{ v: string }>(`SELECT toString(getSetting('${name}')) AS v`))[0].v;
    await clickhouse.client.query({ query: 'SELECT 1', clickhouse_settings: { max_execution_time: 7 } });
    const mutationsSync = await setting('mutations_sync');
    await clickhouse.client.command({
      query: 'SELECT 1',
      clickhouse_settings: { insert_deduplication_token: 'batch-1' },
    });
    await clickhouse.client.command({
      query: 'SELECT 1',
      clickhouse_settings: { mutations_sync: mutationsSync === '0' ? '2' : '0' },
    });
    expect({
      limit: await setting('max_execution_time'),
      token: await setting('insert_deduplication_token'),
      mutationsSync: await setting('mutations_sync'),
    }).toEqual({
      limit: '0',
      token: '',
      mutationsSync,
    });
    // …and a call still gets what it asks for.
    const limited = await clickhouse.client.query({
      query: "SELECT toString(getSetting('max_execution_time')) AS v",
      format: 'JSONEachRow',
      clickhouse_settings: { max_execution_time: 9 },
    });
    expect(await limited.json()).toEqual([{ v: '9' }]);
  });
});

import { ClickHouseDdl, ClickHouseMigrator, EVENTS_TABLE } from '@analytics/clickhouse';
import { useTestClickHouseClient } from '@analytics/testing';

describe('ClickHouse (real engine)', () => {
  const clickhouse = useTestClickHouseClient();

  const rows = async <T>(query: string, query_params?: Record<string, unknown>) =>
    (await clickhouse.client.query({ query, query_params, format: 'JSONEachRow' })).json<T>();

  it('applies migrations once; a second run changes nothing', async () => {
    const migrator = new ClickHouseMigrator(clickhouse.client, new ClickHouseDdl());
    const first = await migrator.migrate();
    const tablesAfterFirst = await rows<{ name: string }>('SELECT name FROM system.tables WHERE database = currentDatabase() ORDER BY name');
    const second = await migrator.migrate();
    expect(first.applied).toContain('1_events');
    expect(second.applied).toEqual([]);
    expect(await rows('SELECT name FROM system.tables WHERE database = currentDatabase() ORDER BY name')).toEqual(tablesAfterFirst);
    expect(await rows('SELECT count() AS c FROM schema_migrations')).toEqual([{ c: first.applied.length }]);
  });

  it('collapses duplicate events, keeping the copy processed last', async () => {
    const row = (properties: string, processed: string) => ({
      project_id: 7,
      event: 'Signed up',
      time: '2026-01-02 03:04:05.678',
      distinct_id: 'u1',
      insert_id: 'abc',
      properties,
      processed_at: processed,
    });
    await clickhouse.client.insert({ table: EVENTS_TABLE, values: [row('{"v":1}', '2026-01-02 03:05:00.000')], format: 'JSONEachRow' });
    await clickhouse.client.insert({ table: EVENTS_TABLE, values: [row('{"v":2}', '2026-01-02 03:06:00.000')], format: 'JSONEachRow' });
    const stored = await rows<{ properties: string }>(
      'SELECT properties FROM events FINAL WHERE project_id = {project:UInt32}',
      { project: 7 },
    );
    expect(stored).toEqual([{ properties: '{"v":2}' }]);
  });

  it('drops a retried insert that carries the same deduplication token', async () => {
    const values = [{ project_id: 8, event: 'e', time: '2026-01-01 00:00:00', distinct_id: 'u', insert_id: 'i', properties: '{}', processed_at: '2026-01-01 00:00:00' }];
    const settings = { insert_deduplication_token: 'events/0/100-199' };
    await clickhouse.client.insert({ table: EVENTS_TABLE, values, format: 'JSONEachRow', clickhouse_settings: settings });
    await clickhouse.client.insert({ table: EVENTS_TABLE, values, format: 'JSONEachRow', clickhouse_settings: settings });
    expect(await rows('SELECT count() AS c FROM events WHERE project_id = 8')).toEqual([{ c: 1 }]);
  });

  it("keeps one call's settings to that call: a time limit or a dedup token never reaches the next", async () => {
    const setting = async (name: string) => (await rows<{ v: string }>(`SELECT toString(getSetting('${name}')) AS v`))[0].v;
    await clickhouse.client.query({ query: 'SELECT 1', clickhouse_settings: { max_execution_time: 7 } });
    await clickhouse.client.command({ query: 'SELECT 1', clickhouse_settings: { insert_deduplication_token: 'batch-1' } });
    expect({ limit: await setting('max_execution_time'), token: await setting('insert_deduplication_token') }).toEqual({ limit: '0', token: '' });
    // …and a call still gets what it asks for.
    const limited = await clickhouse.client.query({ query: "SELECT toString(getSetting('max_execution_time')) AS v", format: 'JSONEachRow', clickhouse_settings: { max_execution_time: 9 } });
    expect(await limited.json()).toEqual([{ v: '9' }]);
  });
});

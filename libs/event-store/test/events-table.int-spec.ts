import { ClickHouseDdl, ClickHouseMigrator, insertFormatted } from '@analytics/clickhouse';
import { CLICKHOUSE_MIGRATIONS } from '@analytics/runtime';
import { useTestClickHouseClient } from '@analytics/testing';
import { EVENTS_TABLE, USER_KEY_COLUMN } from '../src/events-table';

describe('the events table (real engine)', () => {
  const clickhouse = useTestClickHouseClient({ migrate: true });

  const rows = async <T>(query: string, query_params?: Record<string, unknown>) =>
    (await clickhouse.client.query({ query, query_params, format: 'JSONEachRow' })).json<T>();

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
    await clickhouse.client.insert({
      table: EVENTS_TABLE,
      values: [row('{"v":1}', '2026-01-02 03:05:00.000')],
      format: 'JSONEachRow',
    });
    await clickhouse.client.insert({
      table: EVENTS_TABLE,
      values: [row('{"v":2}', '2026-01-02 03:06:00.000')],
      format: 'JSONEachRow',
    });
    const stored = await rows<{ properties: string }>(
      'SELECT properties FROM events FINAL WHERE project_id = {project:UInt32}',
      { project: 7 },
    );
    expect(stored).toEqual([{ properties: '{"v":2}' }]);
  });

  it('drops a retried insert that carries the same deduplication token', async () => {
    const values = [
      {
        project_id: 8,
        event: 'e',
        time: '2026-01-01 00:00:00',
        distinct_id: 'u',
        insert_id: 'i',
        properties: '{}',
        processed_at: '2026-01-01 00:00:00',
      },
    ];
    const settings = { insert_deduplication_token: 'events/0/100-199' };
    await clickhouse.client.insert({
      table: EVENTS_TABLE,
      values,
      format: 'JSONEachRow',
      clickhouse_settings: settings,
    });
    await clickhouse.client.insert({
      table: EVENTS_TABLE,
      values,
      format: 'JSONEachRow',
      clickhouse_settings: settings,
    });
    expect(await rows('SELECT count() AS c FROM events WHERE project_id = 8')).toEqual([{ c: 1 }]);
  });
});

describe("ClickHouse migration 5: the events' user_key on a table that already holds rows", () => {
  const clickhouse = useTestClickHouseClient();
  const rows = async <T>(query: string) => (await clickhouse.client.query({ query, format: 'JSONEachRow' })).json<T>();
  const event = (distinctId: string) => ({
    project_id: 7,
    event: 'e',
    time: '2026-01-01 00:00:00',
    distinct_id: distinctId,
    insert_id: distinctId,
    properties: '{}',
    processed_at: '2026-01-01 00:00:00',
  });
  // The key written independently of identityKeySql: SipHash128 keyed by (project, 0).
  const keyOf = (project: number, id: string) =>
    `toString(reinterpretAsUInt128(sipHash128Keyed((toUInt64(${project}), toUInt64(0)), '${id}')))`;

  it('adds it, computes it for old rows and new inserts alike, and leaves it out of SELECT *', async () => {
    const migrator = new ClickHouseMigrator(clickhouse.client, new ClickHouseDdl());
    await migrator.migrate(CLICKHOUSE_MIGRATIONS.filter((migration) => migration.version < 5));
    await clickhouse.client.insert({ table: EVENTS_TABLE, values: [event('before')], format: 'JSONEachRow' });
    expect((await migrator.migrate(CLICKHOUSE_MIGRATIONS.filter(({ version }) => version <= 5))).applied).toEqual([
      '5_events_user_key',
    ]);
    // Both insert paths the writers use name no column list: the engine fills it.
    await insertFormatted(clickhouse.client, {
      table: EVENTS_TABLE,
      format: 'JSONEachRow',
      rows: `${JSON.stringify(event('after'))}\n`,
    });
    expect(
      await rows(
        `SELECT default_kind FROM system.columns WHERE database = currentDatabase() AND table = '${EVENTS_TABLE}' AND name = '${USER_KEY_COLUMN}'`,
      ),
    ).toEqual([{ default_kind: 'MATERIALIZED' }]);
    const [expected] = await rows<{ after: string; before: string }>(
      `SELECT ${keyOf(7, 'after')} AS after, ${keyOf(7, 'before')} AS before`,
    );
    expect(
      await rows(`SELECT distinct_id, toString(${USER_KEY_COLUMN}) AS key FROM ${EVENTS_TABLE} ORDER BY distinct_id`),
    ).toEqual([
      { distinct_id: 'after', key: expected.after },
      { distinct_id: 'before', key: expected.before },
    ]);
    const [all] = await rows<Record<string, unknown>>(`SELECT * FROM ${EVENTS_TABLE} LIMIT 1`);
    expect(Object.keys(all)).toEqual([
      'project_id',
      'event',
      'time',
      'distinct_id',
      'insert_id',
      'properties',
      'processed_at',
    ]);
  });
});

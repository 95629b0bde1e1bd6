import { parseImportDefinition, parseRunEvery } from './import-definition';

const events = {
  warehouse_source_id: 3,
  name: 'orders',
  table_params: { table_name: 'orders', schema: 'shop' },
  time_column_name: 'ts',
  event_name: 'Ordered',
  user_column_name: 'user_id',
  insert_time_column_name: 'inserted_at',
};

describe('import definitions', () => {
  it('reads an event import with its defaults (time_based, hourly)', () => {
    expect(parseImportDefinition('event-stream', events, 'postgres')).toEqual({
      kind: 'event-stream',
      sourceId: 3,
      name: 'orders',
      tableParams: { table_name: 'orders', schema: 'shop' },
      mapping: {
        time_column_name: 'ts',
        event_name: 'Ordered',
        user_column_name: 'user_id',
        insert_time_column_name: 'inserted_at',
      },
      syncMode: 'time_based',
      runEveryNs: 3_600_000_000_000,
    });
  });

  it('takes only the four run_every values of the spec', () => {
    for (const ns of [0, 3_600_000_000_000, 86_400_000_000_000, 604_800_000_000_000])
      expect(parseRunEvery(ns)).toBe(ns);
    for (const ns of [1, 60_000_000_000, -1, 'hourly', null, 3.6e12 + 1])
      expect(() => parseRunEvery(ns)).toThrow(/run_every must be one of/);
  });

  it('refuses mirror_mode for Postgres, and incomplete mappings', () => {
    expect(() => parseImportDefinition('event-stream', { ...events, sync_mode: 'mirror_mode' }, 'postgres')).toThrow(
      'sync_mode mirror_mode is not supported for Postgres sources',
    );
    expect(() =>
      parseImportDefinition('event-stream', { ...events, insert_time_column_name: undefined }, 'postgres'),
    ).toThrow(/insert_time_column_name is required/);
    expect(() => parseImportDefinition('event-stream', { ...events, event_column_name: 'kind' }, 'postgres')).toThrow(
      /exactly one of event_name/,
    );
    expect(() => parseImportDefinition('people', { ...events, user_column_name: undefined }, 'postgres')).toThrow(
      /user_column_name is required/,
    );
    expect(() => parseImportDefinition('groups', { ...events, group_key: 'company' }, 'postgres')).toThrow(
      /group_id_column_name is required/,
    );
    expect(() =>
      parseImportDefinition('event-stream', { ...events, table_params: { table_name: 'x'.repeat(64) } }, 'postgres'),
    ).toThrow(/at most 63/);
    expect(() => parseImportDefinition('event-stream', { ...events, table_params: {} }, 'postgres')).toThrow(
      /table_name/,
    );
  });

  it('accepts a query instead of a table, and full_sync without an insert-time column', () => {
    const parsed = parseImportDefinition(
      'people',
      {
        warehouse_source_id: '7',
        name: 'users',
        table_params: { query: 'select * from users' },
        user_column_name: 'id',
        sync_mode: 'full_sync',
        run_every: 0,
      },
      'postgres',
    );
    expect(parsed).toMatchObject({
      sourceId: 7,
      tableParams: { query: 'select * from users' },
      syncMode: 'full_sync',
      runEveryNs: 0,
    });
  });
});

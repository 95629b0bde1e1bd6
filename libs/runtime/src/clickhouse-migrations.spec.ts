import { ClickHouseDdl } from '@analytics/clickhouse';
import { CLICKHOUSE_MIGRATIONS } from './clickhouse-migrations';

describe('CLICKHOUSE_MIGRATIONS', () => {
  it("is the ledger as shipped: the owners' lists merged, every version and name unchanged", () => {
    expect(CLICKHOUSE_MIGRATIONS.map(({ version, name }) => `${version}_${name}`)).toEqual([
      '1_events',
      '2_profiles',
      '3_identity_map',
      '4_identity_lookup',
      '5_events_user_key',
      '6_events_codecs',
      '7_lookup_table_rows',
    ]);
  });

  it('renders every shipped migration for a cluster', async () => {
    const statements: string[] = [];
    const client = { command: async ({ query }: { query: string }) => void statements.push(query) };
    for (const migration of CLICKHOUSE_MIGRATIONS) {
      await migration.up({ client: client as never, ddl: new ClickHouseDdl('analytics') });
    }
    expect(statements.every((s) => s.includes('ON CLUSTER analytics'))).toBe(true);
    expect(statements.join('\n')).toContain('ReplicatedReplacingMergeTree');
    expect(statements.join('\n')).toContain('replicated_deduplication_window');
    expect(statements).toContainEqual(
      expect.stringMatching(/^ALTER TABLE events_local ON CLUSTER analytics MODIFY COLUMN time CODEC/),
    );
    expect(statements.join('\n')).toMatch(
      /CREATE TABLE IF NOT EXISTS lookup_table_rows ON CLUSTER analytics AS lookup_table_rows_local/,
    );
  });
});

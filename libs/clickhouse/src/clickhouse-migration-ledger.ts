import { ClickHouseClient } from '@clickhouse/client';
import { MigrationLedger } from '@analytics/migrations';
import { ClickHouseDdl } from './clickhouse-ddl';
import { ClickHouseMigration, ClickHouseMigrationContext } from './clickhouse-migration';
import { MIGRATIONS_TABLE } from './tables';

/**
 * ClickHouse has no transactions: a migration's statements are idempotent, and the ledger row is
 * written after them, so an interrupted run simply repeats the migration next time.
 */
export class ClickHouseMigrationLedger implements MigrationLedger<ClickHouseMigrationContext> {
  constructor(
    private readonly client: ClickHouseClient,
    private readonly ddl: ClickHouseDdl,
  ) {}

  async prepare(): Promise<void> {
    const table = this.ddl.storageTable(MIGRATIONS_TABLE);
    await this.client.command({
      query:
        `CREATE TABLE IF NOT EXISTS ${table}${this.ddl.onCluster} ` +
        `(version UInt32, name String, applied_at DateTime64(3, 'UTC') DEFAULT now64(3)) ` +
        `ENGINE = ${this.ddl.engine('ReplacingMergeTree')} ORDER BY version`,
    });
  }

  /** Whether the ledger table is there yet, without creating it (readers must not write). */
  async exists(): Promise<boolean> {
    const result = await this.client.query({
      query: `EXISTS TABLE ${this.ddl.storageTable(MIGRATIONS_TABLE)}`,
      format: 'JSONEachRow',
    });
    const [row] = await result.json<{ result: number | string }>();
    return Number(row?.result) === 1;
  }

  async appliedVersions(): Promise<Set<number>> {
    const result = await this.client.query({
      query: `SELECT DISTINCT version FROM ${this.ddl.storageTable(MIGRATIONS_TABLE)}`,
      format: 'JSONEachRow',
    });
    const rows = await result.json<{ version: number }>();
    return new Set(rows.map((row) => Number(row.version)));
  }

  async apply(migration: ClickHouseMigration): Promise<void> {
    await migration.up({ client: this.client, ddl: this.ddl });
    await this.client.insert({
      table: this.ddl.storageTable(MIGRATIONS_TABLE),
      values: [{ version: migration.version, name: migration.name }],
      format: 'JSONEachRow',
    });
  }
}

import { ClickHouseClient } from '@clickhouse/client';
import { MigrationReport, runMigrations } from '@analytics/migrations';
import { Inject, Injectable } from '@nestjs/common';
import { ClickHouseDdl } from './clickhouse-ddl';
import { ClickHouseMigrationLedger } from './clickhouse-migration-ledger';
import { ClickHouseMigration } from './clickhouse-migration';

/**
 * Applies a ledger of ClickHouse migrations. The list is the caller's: each table's owning lib holds
 * its own migrations, and the runtime's CLICKHOUSE_MIGRATIONS, above every owner, merges them.
 */
@Injectable()
export class ClickHouseMigrator {
  constructor(
    @Inject(ClickHouseClient) private readonly client: ClickHouseClient,
    private readonly ddl: ClickHouseDdl,
  ) {}

  migrate(migrations: readonly ClickHouseMigration[]): Promise<MigrationReport> {
    return runMigrations('ClickHouse', new ClickHouseMigrationLedger(this.client, this.ddl), migrations);
  }

  /** The versions applied so far, in order; none before the first migration created the ledger. */
  async applied(): Promise<number[]> {
    const ledger = new ClickHouseMigrationLedger(this.client, this.ddl);
    if (!(await ledger.exists())) return [];
    return [...(await ledger.appliedVersions())].sort((a, b) => a - b);
  }
}

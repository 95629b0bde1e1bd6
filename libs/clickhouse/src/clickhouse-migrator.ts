import { ClickHouseClient } from '@clickhouse/client';
import { MigrationReport, runMigrations } from '@analytics/migrations';
import { Inject, Injectable } from '@nestjs/common';
import { ClickHouseDdl } from './clickhouse-ddl';
import { ClickHouseMigrationLedger } from './clickhouse-migration-ledger';
import { CLICKHOUSE_MIGRATIONS } from './migrations';

@Injectable()
export class ClickHouseMigrator {
  constructor(
    @Inject(ClickHouseClient) private readonly client: ClickHouseClient,
    private readonly ddl: ClickHouseDdl,
  ) {}

  migrate(migrations = CLICKHOUSE_MIGRATIONS): Promise<MigrationReport> {
    return runMigrations('ClickHouse', new ClickHouseMigrationLedger(this.client, this.ddl), migrations);
  }
}

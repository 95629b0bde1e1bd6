import { MigrationReport, runMigrations } from '@analytics/migrations';
import { Injectable } from '@nestjs/common';
import { POSTGRES_MIGRATIONS } from './migrations';
import { Postgres } from './postgres';
import { PostgresMigrationLedger } from './postgres-migration';

@Injectable()
export class PostgresMigrator {
  constructor(private readonly postgres: Postgres) {}

  migrate(migrations = POSTGRES_MIGRATIONS): Promise<MigrationReport> {
    return runMigrations('Postgres', new PostgresMigrationLedger(this.postgres.db), migrations);
  }

  /** The versions applied so far, in order; none before the first migration created the ledger. */
  async applied(): Promise<number[]> {
    const ledger = new PostgresMigrationLedger(this.postgres.db);
    if (!(await ledger.exists())) return [];
    return [...(await ledger.appliedVersions())].sort((a, b) => a - b);
  }
}

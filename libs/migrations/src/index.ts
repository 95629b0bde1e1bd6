export { Migration, MigrationLedger, MigrationReport } from './migration';
export { inVersionOrder, runMigrations } from './run-migrations';

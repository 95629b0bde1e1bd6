export { Migration, MigrationLedger, MigrationReport } from './migration';
export { runMigrations } from './run-migrations';

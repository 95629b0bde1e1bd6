export { Migration, MigrationLedger, MigrationReport } from './migration';
export { assertOrdered, runMigrations } from './run-migrations';

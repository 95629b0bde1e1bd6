export { Migration, MigrationLedger, MigrationReport } from './migration';
export { inVersionOrder, runMigrations, unknownVersions } from './run-migrations';

export { Migration, MigrationLedger, MigrationReport } from './migration';
export { inVersionOrder, missingVersions, runMigrations, unknownVersions } from './run-migrations';

export { parseDatabaseUrl, DatabaseTarget } from './database-url';
export { POSTGRES_MIGRATIONS } from './migrations';
export { Database, Postgres, selectRows } from './postgres';
export { PostgresMigration, PostgresMigrationLedger, sqlMigration } from './postgres-migration';
export { PostgresMigrator } from './postgres-migrator';
export { PostgresModule } from './postgres.module';
export { isRefusedValue } from './postgres-error';

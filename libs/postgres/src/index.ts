export { POSTGRES_MIGRATIONS } from './migrations';
export { Database, Postgres, selectRows } from './postgres';
export { parseDatabaseUrl } from './database-url';
export { PostgresMigrator } from './postgres-migrator';
export { PostgresModule } from './postgres.module';
export { isRefusedValue } from './postgres-error';

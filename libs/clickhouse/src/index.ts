export { ClickHouseClient } from '@clickhouse/client';
export { ClickHouseDdl, TableDefinition } from './clickhouse-ddl';
export { ClickHouseMigration, ClickHouseMigrationContext, ddlMigration } from './clickhouse-migration';
export { ClickHouseMigrator } from './clickhouse-migrator';
export { ClickHouseModule } from './clickhouse.module';
export { parseClickHouseUrl, ClickHouseTarget } from './clickhouse-url';
export { createClickHouseClient } from './create-clickhouse-client';
export { CLICKHOUSE_MIGRATIONS } from './migrations';
export { EVENTS_TABLE, MIGRATIONS_TABLE, PROFILES_TABLE } from './tables';

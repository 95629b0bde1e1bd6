/** ClickHouse table names, in one place. */
export const MIGRATIONS_TABLE = 'schema_migrations';
export const EVENTS_TABLE = 'events';

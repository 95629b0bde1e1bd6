/** ClickHouse table names, in one place. */
export const MIGRATIONS_TABLE = 'schema_migrations';
export const EVENTS_TABLE = 'events';
/** The mirror of the Postgres user and group profiles. */
export const PROFILES_TABLE = 'profiles';
/** distinct id → canonical id of its identity cluster (docs/identity.md). */
export const IDENTITY_MAP_TABLE = 'identity_map';

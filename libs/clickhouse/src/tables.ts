/** ClickHouse table names, in one place. */
export const MIGRATIONS_TABLE = 'schema_migrations';
export const EVENTS_TABLE = 'events';
/** The mirror of the Postgres user and group profiles. */
export const PROFILES_TABLE = 'profiles';
/** distinct id → canonical id of its identity cluster (docs/identity.md). */
export const IDENTITY_MAP_TABLE = 'identity_map';
/** Join-engine copy of identity_map's merged ids, in memory on each server, for unique counts (docs/identity.md, "Readers"). */
export const IDENTITY_LOOKUP_TABLE = 'identity_lookup';

/**
 * The 128-bit key of a distinct id in a project, as identity_lookup is built from it: SipHash128
 * keyed by the project, so equal ids of two projects differ. Never change it without rebuilding the table.
 */
export const identityKeySql = (project: string, distinctId: string): string =>
  `reinterpretAsUInt128(sipHash128Keyed((toUInt64(${project}), toUInt64(0)), ${distinctId}))`;

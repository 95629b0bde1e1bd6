/** ClickHouse table names, in one place. */
export const MIGRATIONS_TABLE = 'schema_migrations';
export const EVENTS_TABLE = 'events';
/** The events' stored `identityKeySql(project_id, distinct_id)` (migration 5): the key readers group a person's events by. */
export const USER_KEY_COLUMN = 'user_key';
/** The mirror of the Postgres user and group profiles. */
export const PROFILES_TABLE = 'profiles';
/** distinct id → canonical id of its identity cluster (docs/identity.md). */
export const IDENTITY_MAP_TABLE = 'identity_map';
/** Join-engine copy of identity_map's merged ids, in memory on each server, for unique counts (docs/identity.md, "Readers"). */
export const IDENTITY_LOOKUP_TABLE = 'identity_lookup';

/**
 * The 128-bit key of a distinct id in a project, as identity_lookup is built from it: SipHash128
 * keyed by the project, so equal ids of two projects differ. Every event stores it (USER_KEY_COLUMN).
 * Never change it without rebuilding identity_lookup and that column.
 */
export const identityKeySql = (project: string, distinctId: string): string =>
  `reinterpretAsUInt128(sipHash128Keyed((toUInt64(${project}), toUInt64(0)), ${distinctId}))`;

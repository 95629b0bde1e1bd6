/**
 * The names of the ClickHouse tables whose DDL this lib still holds (the events table's are the event
 * store's, libs/event-store; the profiles mirror's the profile store's, libs/profile-store), and the
 * migrations ledger's.
 */
export const MIGRATIONS_TABLE = 'schema_migrations';
/** distinct id → canonical id of its identity cluster (docs/identity.md). */
export const IDENTITY_MAP_TABLE = 'identity_map';
/** Join-engine copy of identity_map's merged ids, in memory on each server, for unique counts (docs/identity.md, "Readers"). */
export const IDENTITY_LOOKUP_TABLE = 'identity_lookup';

/**
 * The 128-bit key of a distinct id in a project, as identity_lookup is built from it: SipHash128
 * keyed by the project, so equal ids of two projects differ. Every event stores it (the event store's USER_KEY_COLUMN).
 * Never change it without rebuilding identity_lookup and that column.
 */
export const identityKeySql = (project: string, distinctId: string): string =>
  `reinterpretAsUInt128(sipHash128Keyed((toUInt64(${project}), toUInt64(0)), ${distinctId}))`;

/**
 * identity_lookup's rows for identity_map's merged ids matching `where` (the whole table: '1'), as
 * the identity writer writes them: the low 64 bits of each id's key, and that key XOR its canonical id's.
 */
export const fillIdentityLookupSql = (where: string): string =>
  `INSERT INTO ${IDENTITY_LOOKUP_TABLE}
        SELECT project_id, toUInt64(${identityKeySql('project_id', 'distinct_id')} AS own), bitXor(own, ${identityKeySql('project_id', 'person_id')})
        FROM ${IDENTITY_MAP_TABLE} FINAL WHERE ${where} AND person_id != distinct_id`;

/**
 * The profiles' tables, named once. Postgres holds the source of truth (migration 3 of the one
 * Postgres ledger in libs/postgres, shipped together with `group_keys`); ClickHouse holds its mirror
 * under the same name, for reads that join profiles with events.
 */
export const PROFILES_TABLE = 'profiles';
/** The next Kafka offset to apply per partition of the profiles topic, advanced with the profiles (Postgres). */
export const PROFILE_OFFSETS_TABLE = 'profile_offsets';
/** The ClickHouse mirror of the Postgres profiles: whole snapshots, the highest version winning. */
export const PROFILES_MIRROR_TABLE = 'profiles';

import { sqlMigration } from '../postgres-migration';

/**
 * User and group profiles, the source of truth (the ClickHouse `profiles` table mirrors them).
 * - `group_keys`: the keys a project defined before sending group updates.
 * - `profiles`: one row per live profile; `group_key` is '' for user profiles. A deleted profile's
 *   row is removed; `version` comes from one sequence, so a profile deleted and created again still
 *   gets versions above its mirror tombstone.
 * - `property_times`: when each property was last written (ms), kept after `$unset`, so an update
 *   with an older `$time` never overwrites a newer value.
 * - Rows are rewritten whole on every batch: room left in each page (fillfactor 70) lets Postgres
 *   update them in place (HOT), without a new primary-key entry per update.
 * - `profile_offsets`: the next Kafka offset to apply per partition, advanced in the same
 *   transaction as the profiles, so a redelivered batch is never applied twice.
 */
export const profiles = sqlMigration(3, 'profiles', [
  `create table if not exists group_keys (
    project_id integer not null references projects (id) on delete cascade,
    name text not null,
    created_at timestamptz not null default now(),
    primary key (project_id, name)
  )`,
  'create sequence if not exists profile_versions as bigint',
  `create table if not exists profiles (
    project_id integer not null references projects (id) on delete cascade,
    group_key text not null,
    profile_id text not null,
    properties jsonb not null,
    property_times jsonb not null,
    version bigint not null,
    created_at timestamptz not null default now(),
    updated_at timestamptz not null default now(),
    primary key (project_id, group_key, profile_id)
  ) with (fillfactor = 70)`,
  `create table if not exists profile_offsets (
    topic text not null,
    kafka_partition integer not null,
    next_offset bigint not null,
    primary key (topic, kafka_partition)
  )`,
]);

import { ddlMigration } from '@analytics/clickhouse';
import { PROFILES_MIRROR_TABLE } from '../profiles-tables';

/**
 * The mirror of the Postgres profiles, for queries that join profiles with events: whole snapshots,
 * the highest `version` of a profile winning; a deletion is a row with `is_deleted = 1`, which
 * `FINAL` hides. `group_key` is '' for user profiles. Sharded like the events (project and id), so a
 * user's profile sits on the shard holding their events.
 */
export const profilesMirror = ddlMigration(2, 'profiles', (ddl) =>
  ddl.createTable({
    name: PROFILES_MIRROR_TABLE,
    columns: [
      'project_id UInt32',
      'group_key LowCardinality(String)',
      'profile_id String',
      'properties String CODEC(ZSTD(1))',
      'version UInt64',
      'is_deleted UInt8',
      "created_at DateTime64(3, 'UTC')",
      "updated_at DateTime64(3, 'UTC')",
    ],
    engine: 'ReplacingMergeTree(version, is_deleted)',
    orderBy: '(project_id, group_key, profile_id)',
    shardingKey: 'cityHash64(project_id, profile_id)',
  }),
);

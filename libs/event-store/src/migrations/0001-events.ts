import { ddlMigration } from '@analytics/clickhouse';
import { EVENTS_TABLE } from '../events-table';

/**
 * The events table. Its sort key holds the whole dedup key (project, event, time, distinct_id,
 * insert id), so ReplacingMergeTree collapses duplicates, keeping the copy processed last; the
 * partition is derived from `time`, so duplicates always meet in one partition. Layout reasons: docs/storage.md.
 */
export const eventsTable = ddlMigration(1, 'events', (ddl) =>
  ddl.createTable({
    name: EVENTS_TABLE,
    columns: [
      'project_id UInt32',
      'event LowCardinality(String)',
      "time DateTime64(3, 'UTC')",
      'distinct_id String',
      'insert_id String',
      // The custom properties as the JSON text they arrived in: exact types on export, JSON functions in queries.
      'properties String CODEC(ZSTD(1))',
      "processed_at DateTime64(3, 'UTC')",
    ],
    engine: 'ReplacingMergeTree(processed_at)',
    partitionBy: 'toYYYYMM(time)',
    orderBy: '(project_id, event, toDate(time), distinct_id, time, insert_id)',
    shardingKey: 'cityHash64(project_id, distinct_id)',
    // A retried writer batch carries the same insert_deduplication_token and is dropped.
    settings: ddl.cluster ? { replicated_deduplication_window: 10000 } : { non_replicated_deduplication_window: 10000 },
  }),
);

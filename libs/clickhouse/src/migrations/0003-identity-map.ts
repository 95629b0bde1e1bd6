import { ddlMigration } from '../clickhouse-migration';
import { IDENTITY_MAP_TABLE } from '../tables';

/**
 * Which person (canonical id) each merged distinct id belongs to (docs/identity.md), the table
 * PostHog calls person_distinct_id2: kept current by the identity writer, the highest `version`
 * of an id winning; readers join events with it. An id without a row is its own person.
 * `identified_ms` and `linked_ms` rank the candidates for the canonical id.
 */
export const identityMap = ddlMigration(3, 'identity_map', (ddl) =>
  ddl.createTable({
    name: IDENTITY_MAP_TABLE,
    columns: [
      'project_id UInt32',
      'distinct_id String',
      'person_id String',
      'identified_ms Int64',
      'linked_ms Int64',
      'version UInt64',
    ],
    engine: 'ReplacingMergeTree(version)',
    orderBy: '(project_id, distinct_id)',
    shardingKey: 'cityHash64(project_id)',
  }),
);

import { ddlMigration } from '@analytics/clickhouse';
import { LOOKUP_TABLE_ROWS_TABLE } from '../lookup-tables.tables';

/**
 * The rows of every lookup table (docs/lookup-tables.md): one row per key and version of a table,
 * `row` the JSON object of its other columns. A replace writes a new version beside the current
 * one; readers read the version Postgres names current (lookup_tables.version), so they never see
 * half a table, and versions older than the one replaced are deleted after the switch. Replicated
 * on a cluster like every MergeTree: reports read it on whichever node they run.
 */
export const lookupTableRows = ddlMigration(7, 'lookup_table_rows', (ddl) =>
  ddl.createTable({
    name: LOOKUP_TABLE_ROWS_TABLE,
    columns: ['project_id UInt32', 'table_id String', 'version UInt64', 'key String', 'row String CODEC(ZSTD(1))'],
    engine: 'MergeTree',
    orderBy: '(project_id, table_id, version, key)',
    shardingKey: 'project_id',
  }),
);

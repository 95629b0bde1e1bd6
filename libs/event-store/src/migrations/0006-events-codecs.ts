import { ddlMigration } from '@analytics/clickhouse';
import { EVENTS_TABLE, USER_KEY_COLUMN } from '../events-table';

/**
 * The codec of each events column that compresses better than ClickHouse's default LZ4, as
 * `npm run bench:storage` measured it (docs/storage.md, "Column codecs"): ZSTD on the ids, and on
 * the times after T64 (which drops the bits a block's values share). `properties` keeps ZSTD(1).
 */
export const EVENTS_COLUMN_CODECS: Readonly<Record<string, string>> = {
  time: 'T64, ZSTD(1)',
  distinct_id: 'ZSTD(1)',
  insert_id: 'ZSTD(1)',
  processed_at: 'T64, ZSTD(1)',
  [USER_KEY_COLUMN]: 'ZSTD(1)',
};

/**
 * A codec change is metadata only: no mutation, nothing rewritten at startup, safe to repeat. New
 * parts are written with the codecs; parts already on disk keep LZ4 until a merge rewrites them.
 * On a cluster it goes to the replicated `events_local` tables, on every node; the Distributed
 * table stores nothing.
 */
export const eventsCodecs = ddlMigration(6, 'events_codecs', (ddl) => [
  ddl.alterTable(
    EVENTS_TABLE,
    Object.entries(EVENTS_COLUMN_CODECS)
      .map(([column, codec]) => `MODIFY COLUMN ${column} CODEC(${codec})`)
      .join(', '),
  ),
]);

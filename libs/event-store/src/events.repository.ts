import { ClickHouseClient, FormattedInsert, insertFormatted } from '@analytics/clickhouse';
import { Inject, Injectable } from '@nestjs/common';
import { EVENTS_TABLE } from './events-table';

/**
 * The insert of ready-made JSONEachRow lines into the events table. `dedupToken` makes a retried
 * insert of the same batch a no-op (insert deduplication); the table's ReplacingMergeTree key
 * collapses any duplicate that still gets through.
 */
export function eventsInsert(lines: Buffer | string, dedupToken?: string): FormattedInsert {
  return {
    table: EVENTS_TABLE,
    format: 'JSONEachRow',
    rows: lines,
    settings: {
      input_format_json_read_objects_as_strings: 1,
      async_insert: 0,
      // An /import of history spans months (the table's partitions) freely: past ClickHouse's
      // default of 100 per insert it would refuse the batch, whatever the writer did with it.
      max_partitions_per_insert_block: '0',
      ...(dedupToken ? { insert_deduplicate: 1, insert_deduplication_token: dedupToken } : {}),
    },
  };
}

/** Writes ready-made JSONEachRow lines of the events table; nothing here parses or copies them. */
@Injectable()
export class EventsRepository {
  constructor(@Inject(ClickHouseClient) private readonly clickhouse: ClickHouseClient) {}

  /** See eventsInsert. */
  async insert(lines: Buffer | string, dedupToken?: string): Promise<void> {
    await insertFormatted(this.clickhouse, eventsInsert(lines, dedupToken));
  }
}

import { ClickHouseClient, EVENTS_TABLE } from '@analytics/clickhouse';
import { Inject, Injectable } from '@nestjs/common';
import { Readable } from 'node:stream';

/** Writes ready-made JSONEachRow lines of the events table; nothing here parses them again. */
@Injectable()
export class EventsRepository {
  constructor(@Inject(ClickHouseClient) private readonly clickhouse: ClickHouseClient) {}

  /**
   * `dedupToken` makes a retried insert of the same batch a no-op (insert deduplication); the
   * table's ReplacingMergeTree key collapses any duplicate that still gets through.
   */
  async insert(lines: Buffer | string, dedupToken?: string): Promise<void> {
    const result = await this.clickhouse.exec({
      query: `INSERT INTO ${EVENTS_TABLE} FORMAT JSONEachRow`,
      values: Readable.from([lines]),
      clickhouse_settings: {
        input_format_json_read_objects_as_strings: 1,
        async_insert: 0,
        // An /import of history spans months (the table's partitions) freely: past ClickHouse's
        // default of 100 per insert it would refuse the batch, whatever the writer did with it.
        max_partitions_per_insert_block: '0',
        ...(dedupToken ? { insert_deduplicate: 1, insert_deduplication_token: dedupToken } : {}),
      },
    });
    result.stream.destroy();
  }
}

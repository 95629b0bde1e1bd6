import { ClickHouseClient, ClickHouseDdl, countRows, DELETE_ON_EVERY_REPLICA_SETTINGS } from '@analytics/clickhouse';
import { ChSql } from '@analytics/tenancy';
import { Inject, Injectable } from '@nestjs/common';
import { countEventsSql, deleteEventsSql } from './events-deletion-sql';

/** Removes events: the rows a GDPR/CCPA deletion erases (`erasedEventsSql`), the rows a warehouse import brought. */
@Injectable()
export class EventsDeletionRepository {
  constructor(
    @Inject(ClickHouseClient) private readonly clickhouse: ClickHouseClient,
    private readonly ddl: ClickHouseDdl,
  ) {}

  /** Waits for every replica; a repeat deletes nothing more. */
  async delete(where: ChSql, signal?: AbortSignal): Promise<void> {
    const { sql: query, params } = deleteEventsSql(this.ddl, where);
    await this.clickhouse.command({
      query,
      query_params: params,
      clickhouse_settings: DELETE_ON_EVERY_REPLICA_SETTINGS,
      abort_signal: signal,
    });
  }

  /** Zero once a deletion of the same rows is done. */
  async count(where: ChSql, signal?: AbortSignal): Promise<number> {
    return countRows(this.clickhouse, countEventsSql(where), signal);
  }
}

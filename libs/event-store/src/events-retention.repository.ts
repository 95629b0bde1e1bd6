import { ClickHouseClient, ClickHouseDdl } from '@analytics/clickhouse';
import { ChBoundQuery, ProjectScope } from '@analytics/tenancy';
import { Inject, Injectable } from '@nestjs/common';
import { deleteExpiredSql, EventsMonth, expiredMonthsSql, ExpiredBefore } from './events-retention-sql';

/** The retention sweep's reads and removals on the events table (docs/retention.md). */
@Injectable()
export class EventsRetentionRepository {
  constructor(
    @Inject(ClickHouseClient) private readonly clickhouse: ClickHouseClient,
    private readonly ddl: ClickHouseDdl,
  ) {}

  async expiredMonths(scope: ProjectScope, beforeMs: number): Promise<EventsMonth[]> {
    return (await this.rows<{ month: number }>(expiredMonthsSql(scope, beforeMs))).map((row) => Number(row.month));
  }

  /** Returns once every replica rewrote the month's parts that held such rows; a repeat finds none. */
  async deleteExpired(month: EventsMonth, expired: readonly ExpiredBefore[]): Promise<void> {
    if (expired.length) await this.run(deleteExpiredSql(this.ddl, month, expired));
  }

  private async rows<T>({ sql, params }: ChBoundQuery): Promise<T[]> {
    const result = await this.clickhouse.query({ query: sql, query_params: params, format: 'JSONEachRow' });
    return result.json<T>();
  }

  private async run({ sql, params }: ChBoundQuery): Promise<void> {
    await this.clickhouse.command({
      query: sql,
      query_params: params,
      clickhouse_settings: { mutations_sync: this.ddl.cluster ? '2' : '1' },
    });
  }
}

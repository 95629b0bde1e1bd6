import { ClickHouseClient, ClickHouseDdl, queryRows } from '@analytics/clickhouse';
import { ChBoundQuery } from '@analytics/tenancy';
import { Inject, Injectable } from '@nestjs/common';
import { deleteExpiredSql, EventsMonth, expiredMonthsSql, ExpiredBefore } from './events-retention-sql';

/** The retention sweep's reads and removals on the events table (docs/retention.md). */
@Injectable()
export class EventsRetentionRepository {
  constructor(
    @Inject(ClickHouseClient) private readonly clickhouse: ClickHouseClient,
    private readonly ddl: ClickHouseDdl,
  ) {}

  /** Each month that holds expired events, with the projects whose expired events it holds. */
  async expiredMonths(expired: readonly ExpiredBefore[]): Promise<Map<EventsMonth, ExpiredBefore[]>> {
    const months = new Map<EventsMonth, ExpiredBefore[]>();
    if (!expired.length) return months;
    const byProject = new Map(expired.map((e) => [e.scope.projectId, e]));
    const rows = await queryRows<{ project_id: number; month: number }>(this.clickhouse, expiredMonthsSql(expired));
    for (const { project_id, month } of rows)
      months.set(Number(month), [...(months.get(Number(month)) ?? []), byProject.get(Number(project_id))!]);
    return months;
  }

  /** Returns once every replica rewrote the month's parts that held such rows; a repeat finds none. */
  async deleteExpired(month: EventsMonth, expired: readonly ExpiredBefore[]): Promise<void> {
    if (expired.length) await this.run(deleteExpiredSql(this.ddl, month, expired));
  }

  private async run({ sql, params }: ChBoundQuery): Promise<void> {
    await this.clickhouse.command({
      query: sql,
      query_params: params,
      clickhouse_settings: { mutations_sync: this.ddl.cluster ? '2' : '1' },
    });
  }
}

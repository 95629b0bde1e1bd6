import { ClickHouseClient, ClickHouseDdl } from '@analytics/clickhouse';
import { ChBoundQuery, ProjectScope } from '@analytics/tenancy';
import { Inject, Injectable } from '@nestjs/common';
import {
  deleteExpiredSql,
  dropMonthSql,
  EventsMonth,
  expiredMonthsSql,
  ExpiredBefore,
  monthProjectsSql,
} from './events-retention-sql';

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

  async projectsIn(month: EventsMonth): Promise<number[]> {
    return (await this.rows<{ project_id: number }>(monthProjectsSql(month))).map((row) => Number(row.project_id));
  }

  /** Returns once every replica dropped it. */
  async dropMonth(month: EventsMonth): Promise<void> {
    await this.run(dropMonthSql(this.ddl, month));
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
      clickhouse_settings: { mutations_sync: this.ddl.cluster ? '2' : '1', replication_alter_partitions_sync: '2' },
    });
  }
}

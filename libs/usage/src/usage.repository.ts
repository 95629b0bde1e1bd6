import { ClickHouseClient, ClickHouseDdl, queryRows } from '@analytics/clickhouse';
import { ChBoundQuery, ProjectScope } from '@analytics/tenancy';
import { Inject, Injectable } from '@nestjs/common';
import { UsageRange } from './usage-range';
import { diskShare } from './usage-snapshot';
import { eventsDiskShareSql, eventsTableBytesSql, eventsUsageSql, storedEventsByProjectSql } from './usage-sql';

/** A day with events: `YYYY-MM-DD` (UTC) and how many. */
export interface DayCount {
  date: string;
  events: number;
}

export interface EventsUsage {
  total: number;
  oldest: Date | null;
  newest: Date | null;
  perDay: DayCount[];
}

/** One project's stored rows and oldest event time, as the gauges read them. */
export interface StoredEvents {
  projectId: number;
  events: number;
  oldest: Date;
}

// ClickHouse's 64-bit integers arrive as JSON strings; its DateTime64 as `2026-01-02 03:04:05.678` (UTC).
const count = (value: string | number | null | undefined) => Number(value ?? 0);
const instant = (text: string) => new Date(`${text.replace(' ', 'T')}Z`);

/**
 * The usage reads of the events table: counts by day, part sizes. The route's read scans the project's
 * whole stored history (FINAL), so it spends the query API's budget (usage.controller.ts) and stops at 60 s.
 */
@Injectable()
export class UsageRepository {
  constructor(
    @Inject(ClickHouseClient) private readonly clickhouse: ClickHouseClient,
    private readonly ddl: ClickHouseDdl,
  ) {}

  async events(scope: ProjectScope, range: UsageRange): Promise<EventsUsage> {
    type Row = { total: string; oldest: string | null; newest: string | null; per_day: [string, string][] };
    const [row] = await this.rows<Row>(eventsUsageSql(scope, range));
    return {
      total: count(row?.total),
      oldest: row?.oldest ? instant(row.oldest) : null,
      newest: row?.newest ? instant(row.newest) : null,
      perDay: (row?.per_day ?? []).map(([date, events]) => ({ date, events: count(events) })),
    };
  }

  /** The events table's bytes on disk × the project's share of its stored rows (an estimate: docs/api.md). */
  async bytesOnDisk(scope: ProjectScope): Promise<number> {
    type Row = { table_bytes: string; table_rows: string; project_rows: string };
    const [row] = await this.rows<Row>(eventsDiskShareSql(this.ddl, scope));
    return diskShare(count(row?.table_bytes), count(row?.project_rows), count(row?.table_rows));
  }

  async storedEventsByProject(): Promise<StoredEvents[]> {
    const rows = await this.rows<{ project_id: number; events: string; oldest: string }>(storedEventsByProjectSql());
    return rows.map((row) => ({ projectId: row.project_id, events: count(row.events), oldest: instant(row.oldest) }));
  }

  async eventsTableBytes(): Promise<number> {
    const [row] = await this.rows<{ table_bytes: string }>(eventsTableBytesSql(this.ddl));
    return count(row?.table_bytes);
  }

  private rows<T>(query: ChBoundQuery): Promise<T[]> {
    return queryRows<T>(this.clickhouse, query, { settings: { max_execution_time: 60 } });
  }
}

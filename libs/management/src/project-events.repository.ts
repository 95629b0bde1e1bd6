import { ClickHouseClient } from '@analytics/clickhouse';
import { EVENTS_TABLE } from '@analytics/event-store';
import { ChBoundQuery, chIdent, chSql, ProjectScope, renderChSql } from '@analytics/tenancy';
import { Inject, Injectable } from '@nestjs/common';

/** One row read by the primary key's prefix, without FINAL: any stored row counts, a duplicate too. */
export function projectHasEventsSql(scope: ProjectScope): ChBoundQuery {
  return renderChSql(chSql`SELECT 1 AS found FROM ${chIdent(EVENTS_TABLE)} WHERE ${scope} LIMIT 1`);
}

/** Whether a project holds data yet: the one question the project settings ask of the events table. */
@Injectable()
export class ProjectEventsRepository {
  constructor(@Inject(ClickHouseClient) private readonly clickhouse: ClickHouseClient) {}

  async hasEvents(scope: ProjectScope): Promise<boolean> {
    const { sql, params } = projectHasEventsSql(scope);
    const result = await this.clickhouse.query({ query: sql, query_params: params, format: 'JSONEachRow' });
    return (await result.json<{ found: number }>()).length > 0;
  }
}

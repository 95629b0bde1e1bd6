import { ClickHouseClient, EVENTS_TABLE } from '@analytics/clickhouse';
import { chIdent, chSql, ProjectScope, renderChSql } from '@analytics/tenancy';
import { Inject, Injectable } from '@nestjs/common';

/** Whether a project holds data yet: the one question the project settings ask of the events table. */
@Injectable()
export class ProjectEventsRepository {
  constructor(@Inject(ClickHouseClient) private readonly clickhouse: ClickHouseClient) {}

  /** One row read by the primary key's prefix, without FINAL: any stored row counts, a duplicate too. */
  async hasEvents(scope: ProjectScope): Promise<boolean> {
    const { sql, params } = renderChSql(chSql`SELECT 1 AS found FROM ${chIdent(EVENTS_TABLE)} WHERE ${scope} LIMIT 1`);
    const result = await this.clickhouse.query({ query: sql, query_params: params, format: 'JSONEachRow' });
    return (await result.json<{ found: number }>()).length > 0;
  }
}

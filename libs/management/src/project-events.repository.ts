import { ClickHouseClient } from '@analytics/clickhouse';
import { EVENTS_TABLE } from '@analytics/event-store';
import { ChBoundQuery, chIdent, chSql, ProjectScope, renderChSql } from '@analytics/tenancy';
import { Inject, Injectable } from '@nestjs/common';

/** One row read by the primary key's prefix, without FINAL: any stored row counts, a duplicate too. */
export function projectHasEventsSql(scope: ProjectScope): ChBoundQuery {
  return renderChSql(chSql`SELECT 1 AS found FROM ${chIdent(EVENTS_TABLE)} WHERE ${scope} LIMIT 1`);
}

/** Whether ClickHouse has the zone `name` (its own tz database, which may lag or lead Node's). */
export function knownTimeZoneSql(name: string): ChBoundQuery {
  return renderChSql(chSql`SELECT 1 AS found FROM system.time_zones WHERE time_zone = {timeZone:String} LIMIT 1`, {
    params: { timeZone: name },
    acrossProjects: "reads the engine's list of zones, no project's rows",
  });
}

/** What the project settings ask of ClickHouse: whether a project holds data yet, whether a zone is known. */
@Injectable()
export class ProjectEventsRepository {
  constructor(@Inject(ClickHouseClient) private readonly clickhouse: ClickHouseClient) {}

  hasEvents(scope: ProjectScope): Promise<boolean> {
    return this.finds(projectHasEventsSql(scope));
  }

  knowsTimeZone(name: string): Promise<boolean> {
    return this.finds(knownTimeZoneSql(name));
  }

  private async finds({ sql, params }: ChBoundQuery): Promise<boolean> {
    const result = await this.clickhouse.query({ query: sql, query_params: params, format: 'JSONEachRow' });
    return (await result.json<{ found: number }>()).length > 0;
  }
}

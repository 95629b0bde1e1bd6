import { ClickHouseClient, EVENTS_TABLE } from '@analytics/clickhouse';
import { Inject, Injectable } from '@nestjs/common';

/** Whether a project holds data yet: the one question the project settings ask of the events table. */
@Injectable()
export class ProjectEventsRepository {
  constructor(@Inject(ClickHouseClient) private readonly clickhouse: ClickHouseClient) {}

  /** One row read by the primary key's prefix, without FINAL: any stored row counts, a duplicate too. */
  async hasEvents(projectId: number): Promise<boolean> {
    const result = await this.clickhouse.query({
      query: `SELECT 1 AS found FROM ${EVENTS_TABLE} WHERE project_id = {project:UInt32} LIMIT 1`,
      query_params: { project: projectId },
      format: 'JSONEachRow',
    });
    return (await result.json<{ found: number }>()).length > 0;
  }
}

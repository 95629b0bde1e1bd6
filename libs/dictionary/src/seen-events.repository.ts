import { ClickHouseClient, EVENTS_TABLE } from '@analytics/clickhouse';
import { Inject, Injectable } from '@nestjs/common';

export interface SeenEvent {
  name: string;
  /** Stored rows, duplicates not yet merged away included: a guide, not an exact figure. */
  count: number;
  properties: string[];
}

/** Bounds on what one listing reads out: the most frequent events, and property names per event. */
export const SEEN_LIMITS = { events: 2000, propertiesPerEvent: 500 } as const;

/** The events a project actually received, from the ClickHouse events table. */
@Injectable()
export class SeenEventsRepository {
  constructor(@Inject(ClickHouseClient) private readonly clickhouse: ClickHouseClient) {}

  /** Event names with their counts and property names since `sinceMs`, most frequent first. */
  async since(projectId: number, sinceMs: number): Promise<SeenEvent[]> {
    // Every value is bound; the aggregate's size parameter must be a literal, and is our constant.
    const result = await this.clickhouse.query({
      query:
        `SELECT event AS name, count() AS count, arraySort(groupUniqArrayArray(${SEEN_LIMITS.propertiesPerEvent})(JSONExtractKeys(properties))) AS properties ` +
        `FROM ${EVENTS_TABLE} WHERE project_id = {project:UInt32} AND time >= fromUnixTimestamp64Milli({since:Int64}) ` +
        'GROUP BY event ORDER BY count DESC, name LIMIT {limit:UInt32}',
      query_params: { project: projectId, since: sinceMs, limit: SEEN_LIMITS.events },
      format: 'JSONEachRow',
    });
    return result.json<SeenEvent>();
  }
}

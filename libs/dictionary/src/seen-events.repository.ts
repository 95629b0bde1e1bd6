import { ClickHouseClient } from '@analytics/clickhouse';
import { storedEventsSql } from '@analytics/event-store';
import { ChBoundQuery, chCompiled, chIdent, chParam, chSql, ProjectScope, renderChSql } from '@analytics/tenancy';
import { Inject, Injectable } from '@nestjs/common';

export interface SeenEvent {
  name: string;
  /** Stored rows, duplicates not yet merged away included: a guide, not an exact figure. */
  count: number;
  properties: string[];
}

/** Bounds on what one listing reads out: the most frequent events, and property names per event. */
export const SEEN_LIMITS = { events: 2000, propertiesPerEvent: 500 } as const;

/** Event names with their counts and property names since `sinceMs`, most frequent first. */
export function seenEventsSql(scope: ProjectScope, sinceMs: number): ChBoundQuery {
  // Every value is bound; the aggregate's size parameter must be a literal, and is our constant.
  const perEvent = chCompiled(String(SEEN_LIMITS.propertiesPerEvent));
  return renderChSql(
    chSql`SELECT event AS name, count() AS count, arraySort(groupUniqArrayArray(${perEvent})(JSONExtractKeys(properties))) AS properties
        FROM ${storedEventsSql(scope, { final: false })} WHERE ${scope} AND time >= fromUnixTimestamp64Milli(${chParam(sinceMs)})
        GROUP BY event ORDER BY count DESC, name LIMIT ${chParam(SEEN_LIMITS.events, 'UInt32')}`,
  );
}

/** The events a project actually received, from the ClickHouse events table. */
@Injectable()
export class SeenEventsRepository {
  constructor(@Inject(ClickHouseClient) private readonly clickhouse: ClickHouseClient) {}

  async since(scope: ProjectScope, sinceMs: number): Promise<SeenEvent[]> {
    const { sql, params } = seenEventsSql(scope, sinceMs);
    const result = await this.clickhouse.query({ query: sql, query_params: params, format: 'JSONEachRow' });
    return result.json<SeenEvent>();
  }
}

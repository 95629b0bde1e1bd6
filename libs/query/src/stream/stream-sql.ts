import { exportedEventLineSql, storedEventsSql } from '@analytics/event-store';
import { chCompiled, chParam, chSql, ProjectScope, renderChSql } from '@analytics/tenancy';
import { BoundQuery } from '../clickhouse/query-runner';
import { TimeZone } from '../time/time-zone';
import { StreamCursor } from './stream-query';

/** One event of the stream: its line as the raw export writes it, and its sort key for the cursor. */
export interface StreamRow {
  line: string;
  time_ms: string;
  event: string;
  sent_id: string;
  insert_id: string;
}

/** The ids of the people asked for, each cluster whole: every member id and its canonical id. */
export interface StreamIds {
  members: string[];
  canonical: string[];
}

/**
 * A page of the people's events, newest first: the events stored under any id of their clusters
 * (read by id, from the event store's kept events, so a project's retention applies), each written
 * as the raw export's line with the canonical id as `distinct_id` and the id it was sent with in
 * `$distinct_id_before_identity`. The order (time, event, id as sent, insert id, all descending) is
 * the events' dedup key, so it is total and a cursor resumes exactly after the last event shown.
 */
export function streamSql(
  scope: ProjectScope,
  ids: StreamIds,
  range: { fromDay: number; toDay: number; zone: TimeZone },
  limit: number,
  cursor?: StreamCursor,
): BoundQuery {
  const after = cursor
    ? chSql`AND (time, event, distinct_id, insert_id) < (fromUnixTimestamp64Milli(${chParam(cursor.timeMs)}, 'UTC'), ${chParam(cursor.event)}, ${chParam(cursor.distinctId)}, ${chParam(cursor.insertId)})`
    : chSql``;
  const sql = chSql`SELECT ${chCompiled(exportedEventLineSql(false, true))} AS line, toString(toUnixTimestamp64Milli(time)) AS time_ms,
      event, original_distinct_id AS sent_id, insert_id
    FROM (
      SELECT event, time, transform(sent, {members:Array(String)}, {canonical:Array(String)}, sent) AS distinct_id,
        sent AS original_distinct_id, insert_id, properties, processed_at
      FROM (
        SELECT event, time, distinct_id AS sent, insert_id, properties, processed_at
        FROM ${storedEventsSql(scope)}
        WHERE ${scope} AND distinct_id IN {members:Array(String)}
          AND time >= fromUnixTimestamp64Milli({fromMs:Int64}, 'UTC') AND time < fromUnixTimestamp64Milli({toEndMs:Int64}, 'UTC')
          ${after}
        ORDER BY time DESC, event DESC, distinct_id DESC, insert_id DESC
        LIMIT {limit:UInt32}
      )
    )
    ORDER BY time DESC, event DESC, original_distinct_id DESC, insert_id DESC`;
  return renderChSql(sql, {
    params: {
      members: ids.members,
      canonical: ids.canonical,
      ...range.zone.rangeMs(range.fromDay, range.toDay),
      limit,
    },
  });
}

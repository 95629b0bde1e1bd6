import { storedEventsSql } from '@analytics/event-store';
import { chCompiled, chIdent, chParam, chSql, ProjectScope, renderChSql } from '@analytics/tenancy';
import { BoundQuery } from '../clickhouse/query-runner';
import { EventExpression, segmentSql } from '../expressions/query-expressions';
import { SegmentationType } from '../segmentation/segmentation-spec';

/** What the event catalog endpoints look at: the last 31 days of the project's zone, today included. */
export const CATALOG_DAYS = 31;

const ORDER: Readonly<Record<SegmentationType, string>> = {
  general: 'count()',
  unique: 'uniqExact(distinct_id)',
  average: 'count() / uniqExact(distinct_id)',
};

const SINCE = chSql`time >= fromUnixTimestamp64Milli({sinceMs:Int64}, 'UTC')`;

/** /events/names: the most common event names (by the type's measure, ties by name). */
export function topEventNamesSql(
  scope: ProjectScope,
  type: SegmentationType,
  limit: number,
  sinceMs: number,
): BoundQuery {
  const sql = chSql`SELECT event FROM ${storedEventsSql(scope)} WHERE ${scope} AND ${SINCE}
      GROUP BY event ORDER BY ${chCompiled(ORDER[type])} DESC, event ASC LIMIT {limit:UInt32}`;
  return renderChSql(sql, { params: { sinceMs, limit } });
}

/** /events/properties/top: custom property names of an event (or of every event) by how many events carry them. */
export function topPropertiesSql(
  scope: ProjectScope,
  event: string | undefined,
  limit: number,
  sinceMs: number,
): BoundQuery {
  const ofEvent = event === undefined ? chSql`` : chSql` AND event = ${chParam(event)}`;
  const sql = chSql`SELECT name, count() AS count FROM ${storedEventsSql(scope)} ARRAY JOIN JSONExtractKeys(properties) AS name
      WHERE ${scope}${ofEvent} AND ${SINCE}
      GROUP BY name ORDER BY count DESC, name ASC LIMIT {limit:UInt32}`;
  return renderChSql(sql, { params: { sinceMs, limit } });
}

/** /events/properties/values: a property's values (as `string()` gives them) by how many events carry them. */
export function topValuesSql(
  scope: ProjectScope,
  event: string,
  property: EventExpression,
  limit: number,
  sinceMs: number,
): BoundQuery {
  const value = segmentSql(property, 'p');
  const sql = chSql`SELECT value FROM (
        SELECT ${chCompiled(value.sql, value.params)} AS value FROM ${storedEventsSql(scope)} WHERE ${scope} AND event = {event:String} AND ${SINCE}
      ) WHERE isNotNull(value) GROUP BY value ORDER BY count() DESC, value ASC LIMIT {limit:UInt32}`;
  return renderChSql(sql, { params: { event, sinceMs, limit } });
}

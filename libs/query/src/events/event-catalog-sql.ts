import { EVENTS_TABLE } from '@analytics/clickhouse';
import { BoundQuery } from '../clickhouse/query-runner';
import { EventExpression, segmentSql } from '../expressions/query-expressions';
import { SegmentationType } from '../segmentation/segmentation-spec';

/** What the event catalog endpoints look at: the last 31 UTC days, today included. */
export const CATALOG_DAYS = 31;

const ORDER: Readonly<Record<SegmentationType, string>> = {
  general: 'count()',
  unique: 'uniqExact(distinct_id)',
  average: 'count() / uniqExact(distinct_id)',
};

const SINCE = "time >= fromUnixTimestamp64Milli({sinceMs:Int64}, 'UTC')";

/** /events/names: the most common event names (by the type's measure, ties by name). */
export function topEventNamesSql(projectId: number, type: SegmentationType, limit: number, sinceMs: number): BoundQuery {
  return {
    sql: `SELECT event FROM ${EVENTS_TABLE} FINAL WHERE project_id = {project:UInt32} AND ${SINCE}
      GROUP BY event ORDER BY ${ORDER[type]} DESC, event ASC LIMIT {limit:UInt32}`,
    params: { project: projectId, sinceMs, limit },
  };
}

/** /events/properties/top: custom property names of an event by how many events carry them. */
export function topPropertiesSql(projectId: number, event: string, limit: number, sinceMs: number): BoundQuery {
  return {
    sql: `SELECT name, count() AS count FROM ${EVENTS_TABLE} FINAL ARRAY JOIN JSONExtractKeys(properties) AS name
      WHERE project_id = {project:UInt32} AND event = {event:String} AND ${SINCE}
      GROUP BY name ORDER BY count DESC, name ASC LIMIT {limit:UInt32}`,
    params: { project: projectId, event, sinceMs, limit },
  };
}

/** /events/properties/values: a property's values (as `string()` gives them) by how many events carry them. */
export function topValuesSql(projectId: number, event: string, property: EventExpression, limit: number, sinceMs: number): BoundQuery {
  const value = segmentSql(property, 'p');
  return {
    sql: `SELECT value FROM (
        SELECT ${value.sql} AS value FROM ${EVENTS_TABLE} FINAL WHERE project_id = {project:UInt32} AND event = {event:String} AND ${SINCE}
      ) WHERE isNotNull(value) GROUP BY value ORDER BY count() DESC, value ASC LIMIT {limit:UInt32}`,
    params: { ...value.params, project: projectId, event, sinceMs, limit },
  };
}

import { EVENTS_TABLE, IDENTITY_MAP_TABLE } from '@analytics/clickhouse';

/**
 * The project's events with `distinct_id` resolved to the canonical id of its cluster, to read
 * `FROM` in place of `events FINAL` (docs/identity.md): one hash join per query, its right side
 * the project's merged ids that are not canonical (the canonical ids' own rows resolve to
 * themselves and are left out: a smaller hash table to build), no per-row subquery; the outer
 * query's filters on event and time reach the events' primary key through it. Every column of the
 * events table keeps its name; the id as sent stays in `original_distinct_id`. `projectParam`
 * names the query's bound UInt32 parameter holding the project. With `resolve` false (the project
 * has no merged id: `mergedIdExistsSql`), the events as stored, without `original_distinct_id`:
 * even a join with nothing on its right costs about 15% of a funnel.
 */
export function resolvedEventsSql(projectParam = 'project', resolve = true): string {
  if (!resolve) return `${EVENTS_TABLE} FINAL`;
  const project = `{${projectParam}:UInt32}`;
  return `(SELECT project_id, event, time, if(idm.person_id = '', ev.distinct_id, idm.person_id) AS distinct_id,
      ev.distinct_id AS original_distinct_id, insert_id, properties, processed_at
    FROM ${EVENTS_TABLE} AS ev FINAL
    LEFT ANY JOIN (SELECT distinct_id, person_id FROM ${IDENTITY_MAP_TABLE} FINAL WHERE project_id = ${project} AND person_id != distinct_id) AS idm ON idm.distinct_id = ev.distinct_id
    WHERE ev.project_id = ${project})`;
}

/**
 * One row when an id of the project belongs to another id's cluster, none otherwise: until then its
 * reports read events without the join. Read without FINAL, by the primary key: a superseded row
 * can only make a report join when it need not.
 */
export function mergedIdExistsSql(projectParam = 'project'): string {
  return `SELECT 1 AS merged FROM ${IDENTITY_MAP_TABLE} WHERE project_id = {${projectParam}:UInt32} AND person_id != distinct_id LIMIT 1`;
}

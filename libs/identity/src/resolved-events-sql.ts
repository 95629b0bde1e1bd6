import { EVENTS_TABLE, IDENTITY_MAP_TABLE } from '@analytics/clickhouse';

/**
 * The project's events with `distinct_id` resolved to the canonical id of its cluster, to read
 * `FROM` in place of `events FINAL` (docs/identity.md): one hash join per query, its right side
 * the project's merged ids that are not canonical (the canonical ids' own rows resolve to
 * themselves and are left out: a smaller hash table to build), no per-row subquery; the outer
 * query's filters on event and time reach the events' primary key through it. Every column of the
 * events table keeps its name; the id as sent stays in `original_distinct_id`. `projectParam`
 * names the query's bound UInt32 parameter holding the project.
 */
export function resolvedEventsSql(projectParam = 'project'): string {
  const project = `{${projectParam}:UInt32}`;
  return `(SELECT project_id, event, time, if(idm.person_id = '', ev.distinct_id, idm.person_id) AS distinct_id,
      ev.distinct_id AS original_distinct_id, insert_id, properties, processed_at
    FROM ${EVENTS_TABLE} AS ev FINAL
    LEFT ANY JOIN (SELECT distinct_id, person_id FROM ${IDENTITY_MAP_TABLE} FINAL WHERE project_id = ${project} AND person_id != distinct_id) AS idm ON idm.distinct_id = ev.distinct_id
    WHERE ev.project_id = ${project})`;
}

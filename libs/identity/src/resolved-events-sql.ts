import { EVENTS_TABLE, IDENTITY_LOOKUP_TABLE, IDENTITY_MAP_TABLE, identityKeySql } from '@analytics/clickhouse';

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
 * For unique counts without a cluster: the project's events with `user_key`, the 128-bit key of the
 * canonical id of the event's cluster, looked up (`joinGet`, no hash table built per query) in
 * `identity_lookup`. Counting `user_key` is as exact as counting the resolved id itself
 * (`uniqExact` keys strings by a 128-bit SipHash too) and builds no string. The table is found by
 * the low 64 bits of the id's key and holds `key XOR canonical key`: an id whose low bits collide
 * with a merged id's gets a key no other id has, so it still counts once, as itself.
 */
export function resolvedUserKeysSql(projectParam = 'project'): string {
  const project = `{${projectParam}:UInt32}`;
  // Keyed by the bound project rather than the column (equal here): a constant SipHash key is
  // cheaper per row (the bench's funnel: ~3% of its CPU).
  return `(SELECT project_id, event, time, properties, insert_id, processed_at, distinct_id,
      bitXor(${identityKeySql(project, 'distinct_id')} AS own_key, joinGet('${IDENTITY_LOOKUP_TABLE}', 'delta', toUInt64(own_key))) AS user_key
    FROM ${EVENTS_TABLE} FINAL
    WHERE project_id = ${project})`;
}

/**
 * What a report reads to tell users apart without needing their ids as text (a unique count, a
 * funnel's per-user paths): the events and the column naming each event's person. Without a merged
 * id (`resolve` false), the events as stored and `distinct_id`; with one, on a single server
 * (`lookup`) `user_key` through identity_lookup, on a cluster the resolved `distinct_id` of the join.
 * `expressions`: the report's filters and segments over those events. The lookup leaves
 * `distinct_id` as sent, so an expression that reads it takes the join, where it is the canonical id.
 */
export function userEventsSql(projectParam: string, resolve: boolean, lookup: boolean, expressions: string[] = []): { events: string; user: string } {
  if (!resolve) return { events: resolvedEventsSql(projectParam, false), user: 'distinct_id' };
  const readsId = expressions.some((sql) => /\bdistinct_id\b/.test(sql));
  return lookup && !readsId ? { events: resolvedUserKeysSql(projectParam), user: 'user_key' } : { events: resolvedEventsSql(projectParam), user: 'distinct_id' };
}

/**
 * One row when an id of the project belongs to another id's cluster, none otherwise: until then its
 * reports read events without the join. Read without FINAL, by the primary key: a superseded row
 * can only make a report join when it need not.
 */
export function mergedIdExistsSql(projectParam = 'project'): string {
  return `SELECT 1 AS merged FROM ${IDENTITY_MAP_TABLE} WHERE project_id = {${projectParam}:UInt32} AND person_id != distinct_id LIMIT 1`;
}

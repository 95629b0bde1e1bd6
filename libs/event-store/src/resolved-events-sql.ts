import { IDENTITY_LOOKUP_TABLE, IDENTITY_MAP_TABLE } from '@analytics/clickhouse';
import { chIdent, chParam, chScope, ChSql, chSql, ProjectScope } from '@analytics/tenancy';
import { EVENTS_TABLE, USER_KEY_COLUMN } from './events-table';

const EVENTS = chIdent(EVENTS_TABLE);
const IDENTITY_MAP = chIdent(IDENTITY_MAP_TABLE);
const USER_KEY = chIdent(USER_KEY_COLUMN);

/**
 * The predicate of the events a project keeps (docs/retention.md): its own, and with a retention of N
 * days only those whose `time` is less than N × 24 hours old at the query's start (counted in UTC, so
 * a daylight-saving change on the host moves nothing). The daily sweep
 * deletes from a line at least that old, so a reader never sees an event come and go.
 */
export function keptEventsSql(scope: ProjectScope, alias?: string): ChSql {
  const project = alias === undefined ? chSql`${scope}` : chScope(scope, alias);
  const days = scope.eventsRetentionDays;
  if (days === null) return project;
  const time = alias === undefined ? chSql`time` : chSql`${chIdent(alias)}.time`;
  return chSql`${project} AND ${time} >= subtractDays(now64(3, 'UTC'), ${chParam(days, 'UInt32')})`;
}

/**
 * The events table as a reader takes it: `events FINAL` (deduplicated) or, with `final` false, every
 * stored copy. With a retention, only the kept events (a subquery with every column, `user_key` too);
 * without, the table itself, so its reader's own WHERE holds the project predicate as before.
 */
export function storedEventsSql(scope: ProjectScope, { final = true }: { final?: boolean } = {}): ChSql {
  const table = final ? chSql`${EVENTS} FINAL` : EVENTS;
  if (scope.eventsRetentionDays === null) return table;
  return chSql`(SELECT project_id, event, time, distinct_id, insert_id, properties, processed_at, ${USER_KEY}
    FROM ${table} WHERE ${keptEventsSql(scope)})`;
}

/**
 * The project's events with `distinct_id` resolved to the canonical id of its cluster, to read
 * `FROM` in place of `events FINAL` (docs/identity.md): one hash join per query, its right side
 * the project's merged ids that are not canonical (the canonical ids' own rows resolve to
 * themselves and are left out: a smaller hash table to build), no per-row subquery; the outer
 * query's filters on event and time reach the events' primary key through it. Every column of the
 * events table keeps its name; the id as sent stays in `original_distinct_id`. With `resolve` false
 * (the project has no merged id: `mergedIdExistsSql`), the events as stored, without
 * `original_distinct_id`: even a join with nothing on its right costs about 15% of a funnel; the
 * reader's own WHERE then holds the project predicate.
 */
export function resolvedEventsSql(scope: ProjectScope, resolve = true): ChSql {
  if (!resolve) return storedEventsSql(scope);
  return chSql`(SELECT project_id, event, time, if(idm.person_id = '', ev.distinct_id, idm.person_id) AS distinct_id,
      ev.distinct_id AS original_distinct_id, insert_id, properties, processed_at
    FROM ${EVENTS} AS ev FINAL
    LEFT ANY JOIN (SELECT distinct_id, person_id FROM ${IDENTITY_MAP} FINAL WHERE ${scope} AND person_id != distinct_id) AS idm ON idm.distinct_id = ev.distinct_id
    WHERE ${keptEventsSql(scope, 'ev')})`;
}

/**
 * For unique counts and funnels without a cluster: the project's events with `person_key`, the
 * 128-bit key of the canonical id of the event's cluster: the event's stored `user_key` (its own
 * id's key) XOR the `delta` looked up (`joinGet`, no hash table built per query) in
 * `identity_lookup`. Counting `person_key` is as exact as counting the resolved id itself
 * (`uniqExact` keys strings by a 128-bit SipHash too) and builds no string. The table is found by
 * the low 64 bits of the id's key and holds `key XOR canonical key`: an id whose low bits collide
 * with a merged id's gets a key no other id has, so it still counts once, as itself.
 */
export function resolvedUserKeysSql(scope: ProjectScope): ChSql {
  return chSql`(SELECT project_id, event, time, properties, insert_id, processed_at, distinct_id,
      bitXor(${USER_KEY}, joinGet('${chIdent(IDENTITY_LOOKUP_TABLE)}', 'delta', toUInt64(${USER_KEY}))) AS person_key
    FROM ${EVENTS} FINAL
    WHERE ${keptEventsSql(scope)})`;
}

/**
 * What a report reads to tell users apart without needing their ids as text (a unique count, a
 * funnel's per-user paths): the events and the column naming each event's person. Without a merged
 * id (`resolve` false), the events as stored and their stored `user_key`; with one, on a single server
 * (`lookup`) `person_key` through identity_lookup, on a cluster the resolved `distinct_id` of the join.
 * `expressions`: the report's filters and segments over those events. The lookup leaves
 * `distinct_id` as sent, so an expression that reads it takes the join, where it is the canonical id.
 */
export function userEventsSql(
  scope: ProjectScope,
  resolve: boolean,
  lookup: boolean,
  expressions: string[] = [],
): { events: ChSql; user: string } {
  if (!resolve) return { events: resolvedEventsSql(scope, false), user: USER_KEY_COLUMN };
  const readsId = expressions.some((sql) => /\bdistinct_id\b/.test(sql));
  return lookup && !readsId
    ? { events: resolvedUserKeysSql(scope), user: 'person_key' }
    : { events: resolvedEventsSql(scope), user: 'distinct_id' };
}

/**
 * One row when an id of the project belongs to another id's cluster, none otherwise: until then its
 * reports read events without the join. Read without FINAL, by the primary key: a superseded row
 * can only make a report join when it need not.
 */
export function mergedIdExistsSql(scope: ProjectScope): ChSql {
  return chSql`SELECT 1 AS merged FROM ${IDENTITY_MAP} WHERE ${scope} AND person_id != distinct_id LIMIT 1`;
}

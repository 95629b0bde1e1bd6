import { userEventsSql } from '@analytics/event-store';
import { chCompiled, chParam, chSql, ChSql, ProjectScope, renderChSql } from '@analytics/tenancy';
import { BoundQuery } from '../clickhouse/query-runner';
import { whereSql } from '../expressions/query-expressions';
import { FlowsSpec } from './flows-spec';

/** The one row of a flows query: the top paths and the totals, over every person with an anchor. */
export interface FlowsRow {
  top: [string[], string][];
  people: string;
  distinct_paths: string;
  reached: string[];
}

/**
 * The flows query in one ClickHouse query (docs/queries.md, "Flows"; flows-reference.ts is the
 * same rules in TypeScript):
 *
 * 1. events: the range's events, each with the column telling people apart (identity resolved as
 *    every report: `userEventsSql`) and whether it can be an anchor (its name and `where`);
 * 2. anchors: each person's first anchor time, one row a person (the join's right side);
 * 3. paths: the events joined to their person's anchor; after it, the `steps` first events past
 *    the anchor's (time, name) kept by groupArraySorted (a person holds at most `steps` of them
 *    however many events follow, so memory stays bounded by the people, not their events);
 *    before it, the events up to the anchor sorted and the last `steps` kept;
 * 4. the paths counted, then one row: the `limit` most taken, how many people and paths, and how
 *    many people reached each step (ForEach over paths of unequal length sums position by position).
 */
/**
 * The memory one flows query may use (ClickHouse's max_memory_usage): the per-person arrays and the
 * anchors' hash table grow with the people in the range. Past it the query stops and the API answers
 * 400 (flows.repository.ts). The bench's 10M events of 1M people peak well under it (docs/benchmarks.md).
 */
export const FLOWS_MAX_MEMORY_BYTES = 2 * 1024 ** 3;

export function flowsSql(
  scope: ProjectScope,
  spec: FlowsSpec,
  resolve = true,
  lookup = true,
  maxMemoryBytes = FLOWS_MAX_MEMORY_BYTES,
): BoundQuery {
  const where = spec.where ? whereSql(spec.where, 'w') : { sql: '1', params: {} };
  const { events, user } = userEventsSql(scope, resolve, lookup, [where.sql]);
  const anchor = chParam(spec.event);
  const range = spec.zone.rangeMs(spec.fromDay, spec.toDay);
  const steps = chParam(spec.steps, 'UInt32');
  const rangeEvents = chSql`SELECT ${chCompiled(`${user} AS user, toUnixTimestamp64Milli(time) AS t, event, ${where.sql} AS passes`, where.params)}
      FROM ${events}
      WHERE ${scope} AND time >= fromUnixTimestamp64Milli(${chParam(range.fromMs)}, 'UTC')
        AND time < fromUnixTimestamp64Milli(${chParam(range.toEndMs)}, 'UTC')`;
  const anchors = chSql`SELECT user, min(t) AS anchor_t FROM (${rangeEvents}) WHERE event = ${anchor} AND passes GROUP BY user`;
  const path: ChSql =
    spec.direction === 'after'
      ? chSql`arrayPushFront(arrayMap(x -> x.2, groupArraySortedIf(${steps})((e.t, e.event), (e.t, e.event) > (a.anchor_t, ${anchor}))), ${anchor})`
      : chSql`arrayPushBack(arrayMap(x -> x.2, arraySlice(arraySort(groupArrayIf((e.t, e.event), (e.t, e.event) < (a.anchor_t, ${anchor}))) AS xb, greatest(1, length(xb) - ${steps} + 1))), ${anchor})`;
  const near = spec.direction === 'after' ? chSql`e.t >= a.anchor_t` : chSql`e.t <= a.anchor_t`;
  const perPerson = chSql`SELECT ${path} AS path
      FROM (${rangeEvents}) AS e INNER JOIN (${anchors}) AS a ON e.user = a.user
      WHERE ${near}
      GROUP BY e.user`;
  const sql = chSql`SELECT arraySlice(arraySort(x -> (-x.2, x.1), groupArray((path, c))), 1, ${chParam(spec.limit, 'UInt32')}) AS top,
      sum(c) AS people, count() AS distinct_paths, sumForEach(arrayWithConstant(length(path), c)) AS reached
    FROM (SELECT path, count() AS c FROM (${perPerson}) GROUP BY path)
    SETTINGS ${chCompiled(`max_memory_usage = ${Math.floor(maxMemoryBytes)}`)}`;
  return renderChSql(sql);
}

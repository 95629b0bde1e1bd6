import { storedEventsSql, userEventsSql } from '@analytics/event-store';
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
 * 1. names: the event names in the range, sorted; an event's rank among them orders events of one
 *    millisecond by name, as the reference does;
 * 2. events: the range's events, each with the column telling people apart (identity resolved as
 *    every report: `userEventsSql`), whether it can be an anchor (its name and `where`), and its
 *    order key, one UInt128: milliseconds since the range's start, then the name's rank. Comparing
 *    and keeping the least of plain integers costs about a quarter of the CPU of (time, name)
 *    tuples (docs/benchmarks.md);
 * 3. anchors: each person's first anchor, one row a person (the join's right side);
 * 4. paths: the events joined to their person's anchor; the `steps` keys nearest the anchor's on
 *    its side kept by groupArraySortedIf (before it, the keys' complement, so the least are the
 *    latest): a person holds at most `steps` of them however many events they have, so memory stays
 *    bounded by the people, not their events. Paths are counted as arrays of ranks, then named;
 * 5. one row: the `limit` most taken, how many people and paths, and how many people reached each
 *    step (ForEach over paths of unequal length sums position by position).
 */
/** The low 64 bits of an order key: the name's rank. */
const RANK_OF = (key: string) => `toUInt64(bitAnd(${key}, 18446744073709551615))`;

export function flowsSql(scope: ProjectScope, spec: FlowsSpec, resolve = true, lookup = true): BoundQuery {
  const where = spec.where ? whereSql(spec.where, 'w') : { sql: '1', params: {} };
  const { events, user } = userEventsSql(scope, resolve, lookup, [where.sql]);
  const anchor = chParam(spec.event);
  const range = spec.zone.rangeMs(spec.fromDay, spec.toDay);
  const fromMs = chParam(range.fromMs);
  const inRange = chSql`${scope} AND time >= fromUnixTimestamp64Milli(${fromMs}, 'UTC')
        AND time < fromUnixTimestamp64Milli(${chParam(range.toEndMs)}, 'UTC')`;
  // Copies of an event are the same name: the set of names needs no FINAL.
  const names = chSql`SELECT arraySort(groupUniqArray(toString(event))) FROM ${storedEventsSql(scope, { final: false })} WHERE ${inRange}`;
  const rangeEvents = chSql`SELECT ${chCompiled(`${user} AS user, ${where.sql} AS passes`, where.params)}, event,
        bitOr(bitShiftLeft(toUInt128(toUInt64(toUnixTimestamp64Milli(time) - ${fromMs})), 64), toUInt128(transform(toString(event), names, arrayEnumerate(names), 0))) AS k
      FROM ${events}
      WHERE ${inRange}`;
  const anchors = chSql`SELECT user, min(k) AS anchor_k FROM (${rangeEvents}) WHERE event = ${anchor} AND passes GROUP BY user`;
  const steps = chParam(spec.steps, 'UInt32');
  const ranks =
    spec.direction === 'after'
      ? chSql`arrayMap(x -> ${chCompiled(RANK_OF('x'))}, groupArraySortedIf(${steps})(e.k, e.k > a.anchor_k))`
      : chSql`arrayReverse(arrayMap(x -> ${chCompiled(RANK_OF('bitNot(x)'))}, groupArraySortedIf(${steps})(bitNot(e.k), e.k < a.anchor_k)))`;
  const near = spec.direction === 'after' ? chSql`e.k >= a.anchor_k` : chSql`e.k <= a.anchor_k`;
  const perPerson = chSql`SELECT ${ranks} AS ranks
      FROM (${rangeEvents}) AS e INNER JOIN (${anchors}) AS a ON e.user = a.user
      WHERE ${near}
      GROUP BY e.user`;
  const named = chSql`arrayMap(x -> names[x], ranks)`;
  const path =
    spec.direction === 'after' ? chSql`arrayPushFront(${named}, ${anchor})` : chSql`arrayPushBack(${named}, ${anchor})`;
  const sql = chSql`WITH (${names}) AS names
    SELECT arraySlice(arraySort(x -> (-x.2, x.1), groupArray((path, c))), 1, ${chParam(spec.limit, 'UInt32')}) AS top,
      sum(c) AS people, count() AS distinct_paths, sumForEach(arrayWithConstant(length(path), c)) AS reached
    FROM (SELECT ${path} AS path, count() AS c FROM (${perPerson}) GROUP BY ranks)`;
  return renderChSql(sql);
}

import { userEventsSql } from '@analytics/event-store';
import { chCompiled, chSql, ChSql, ProjectScope, renderChSql } from '@analytics/tenancy';
import { BoundQuery } from '../clickhouse/query-runner';
import { bucketDaySql, bucketParams } from '../clickhouse/bucket-sql';
import { offsetMsSql, rangeParams, wallMsSql } from '../clickhouse/wall-time-sql';
import { allOf, segmentSql, whereSql } from '../expressions/query-expressions';
import { DAY_MS } from '../time/utc-days';
import { Layers, sameInstantLayers } from './funnel-same-instant-sql';
import { FunnelSpec } from './funnel-spec';
import { rankedSql, tallySql } from './funnel-tally-sql';

/**
 * The funnel in one ClickHouse query, exact to the contract (docs/queries.md):
 *
 * 1. events: each of a user's events gets a bit mask of the steps it can fill (event name, the
 *    step's `where`, the funnel's `where`s); only events with a bit are read.
 * 2. users: each user's events sorted by time (one UInt64 each: time and mask). Events at the same
 *    instant form a group that acts through its first event, with its `reach` from each step:
 *    the most consecutive steps its distinct events can fill (a small matching search; users
 *    without such groups, nearly all, skip it).
 * 3. attempts: from every start group in range, the greedy chain (take the first group that can
 *    fill the next step, fill as many steps there as it can) is at once the deepest and the one
 *    with the earliest step times; the window only cuts it short, since times only grow along it.
 *    The chains of all events are built at once, last step first, by reverse fills over the
 *    user's arrays: no per-attempt lookups into them.
 * 4. per bucket the deepest attempt, then the earliest start, is the user's; then users are
 *    counted per bucket (and segment) with their summed step times.
 *
 * Lambda parameters are named x… so they never shadow a column.
 */

export interface FunnelRow {
  bucket: number;
  segment: string;
  /** Rank of the segment by entries (segmented funnels only). */
  rank?: number;
  counts: number[];
  /** Σ (t_i − t_{i−1}) and Σ (t_i − t_0) per step, as decimal text (they may pass 2^53). */
  previous_ms: string[];
  start_ms: string[];
}

const range = (n: number, from = 0) => Array.from({ length: n - from }, (_, i) => i + from);

function stepMasks(spec: FunnelSpec): BoundQuery {
  const params: Record<string, unknown> = {};
  const bits = spec.steps.map((step, k) => {
    params[`step${k}`] = step.event;
    const where = step.where ? whereSql(step.where, `s${k}`) : { sql: '1', params: {} };
    Object.assign(params, where.params);
    return `bitShiftLeft(toUInt64(event = {step${k}:String} AND ${where.sql}), ${k})`;
  });
  return { sql: bits.join(' + '), params };
}

/** Step 1: the events that can fill a step, with their masks (and the `on` value of step-1 events). */
function eventsSql(scope: ProjectScope, spec: FunnelSpec, resolve: boolean, lookup: boolean): ChSql {
  const masks = stepMasks(spec);
  const filters = allOf(spec.filters, 'f');
  const segment = spec.on ? segmentSql(spec.on, 'on') : undefined;
  // The funnel never outputs a user: their 128-bit keys group paths as well as the resolved ids.
  const { events, user } = userEventsSql(scope, resolve, lookup, [masks.sql, filters.sql, segment?.sql ?? '']);
  const columns = chCompiled(
    `${user} AS user, toUnixTimestamp64Milli(time) AS t, ${masks.sql} AS mask${segment ? `, if(bitTest(mask, 0), ${segment.sql}, NULL) AS seg` : ''}`,
    {
      ...masks.params,
      ...segment?.params,
    },
  );
  return chSql`SELECT ${columns}
    FROM ${events}
    WHERE ${scope} AND event IN {stepEvents:Array(String)}
      AND time >= fromUnixTimestamp64Milli({fromMs:Int64}, 'UTC') AND time < fromUnixTimestamp64Milli({scanEndMs:Int64}, 'UTC')
      AND ${chCompiled(filters.sql, filters.params)} AND mask != 0`;
}

/** A chain's time for a step it does not reach: later than any window's end. */
const NONE = 'toInt64(9223372036854775807)';

const tupleSql = (values: string[]) => (values.length === 1 ? `tuple(${values[0]})` : `(${values.join(', ')})`);

/**
 * What the chain holds from event `xt` on once it lands there looking for step `k`: a tuple of the
 * times of steps k … n − 1, the event's time for each step its group fills (its reach `xr`), then
 * `H<k + reach>`'s. Elementwise over the user's events: no lambda captures an array, so nothing
 * is copied per element, and tuples of numbers move as flat columns.
 */
function landingSql(k: number, n: number, onlyCandidates: boolean): string {
  const later = range(n, k + 1);
  // Off the candidates for step k, NONE: after the last one, the reverse fill keeps it.
  const value = (tuple: string) =>
    onlyCandidates ? `if(bitTest(xm, ${k}), ${tuple}, ${tupleSql(range(n, k).map(() => NONE))})` : tuple;
  const args = (names: string[]) => ['xt', ...(onlyCandidates ? ['xm'] : []), ...names].join(', ');
  const arrays = (names: string[]) => ['times', ...(onlyCandidates ? ['fillMasks'] : []), ...names].join(', ');
  if (!later.length) return `arrayMap((${args([])}) -> ${value('tuple(xt)')}, ${arrays([])})`;
  const plain = `arrayMap((${args([`xh${k + 1}`])}) -> ${value(tupleSql(['xt', ...later.map((m) => `xh${k + 1}.${m - k}`)]))}, ${arrays([`H${k + 1}`])})`;
  // Step m comes from H<k + r> (its element m − k − r + 1) when the group fills r steps short of m.
  const fromGroup = (m: number) =>
    `if(${m} < ${k} + xr, xt, multiIf(${range(m - k + 1, 1)
      .map((r) => `xr = ${r}, xh${k + r}.${m - k - r + 1}`)
      .join(', ')}, ${NONE}))`;
  const grouped = `arrayMap((${args(['xr', ...later.map((step) => `xh${step}`)])}) -> ${value(tupleSql(['xt', ...later.map(fromGroup)]))}, ${arrays([`arraySlice(reachAll, ${k} * len + 1, len)`, ...later.map((step) => `H${step}`)])})`;
  return `if(dup, ${grouped}, ${plain})`;
}

/**
 * Step 3: the greedy chain from every event at once, last step first. `H<k>[i]` holds the chain's
 * step times from the first event after `i` that can fill step k on: that event's landing value,
 * carried back to every earlier event by one reverse fill and a shift by one (NONE past the last
 * candidate). Then the attempts: the chain of each start in range.
 */
function attemptsLayers(spec: FunnelSpec): Layers {
  const n = spec.steps.length;
  const layers: Layers = [];
  for (const k of range(n, 1).reverse()) {
    const none = tupleSql(range(n, k).map(() => NONE));
    layers.push([
      `arrayShiftLeft(arrayReverseFill((xw, xm) -> bitTest(xm, ${k}), ${landingSql(k, n, true)}, fillMasks), 1, ${none}) AS H${k}`,
    ]);
  }
  layers.push([
    'arrayMap((xm, xt) -> bitTest(xm, 0) AND xt >= {fromMs:Int64} AND xt < {toEndMs:Int64}, fillMasks, times) AS isStart',
  ]);
  layers.push([
    `arrayFilter((xc, xs) -> xs, ${landingSql(0, n, false)}, isStart) AS chains`,
    ...(spec.on ? ['arrayFilter((xv, xs) -> xs, startSegs, isStart) AS S'] : []),
  ]);
  return layers;
}

/**
 * An attempt's sort key in one UInt64: its bucket (a day number, offset to stay positive: times
 * span 1900 to 2299), 63 − depth, then its index. Sorting plain integers is several times cheaper
 * than sorting tuples through a lambda, and the bucket and depth read back from the key.
 */
const ORDER_KEY = {
  bucketShift: 38,
  bucketOffset: 2 ** 22,
  depthShift: 32,
  maxDepth: 63,
};

/** The last instant a step may take after a start at `start`: the twin of `windowEndMs`. */
function windowEndSql(spec: FunnelSpec, start: string): string {
  const plain = `${start} + {windowMs:Int64}`;
  if (!spec.calendarWindow) return plain;
  return `(${plain} + ${offsetMsSql(start, spec.zone)} - ${offsetMsSql(`(${plain})`, spec.zone)})`;
}

/**
 * Step 4: the user's attempt per bucket: deepest, then earliest start (starts are in time order):
 * the first of each bucket once the attempts are sorted by their key.
 */
function bestPerBucketLayers(spec: FunnelSpec): Layers {
  const { bucketShift, bucketOffset, depthShift, maxDepth } = ORDER_KEY;
  // 63 − the attempt's depth: its chain's times that fall in the window (they only grow along it).
  const end = windowEndSql(spec, 'xc.1');
  const inWindow = range(spec.steps.length, 1).map((m) => ` - (xc.${m + 1} <= ${end})`);
  const key = `bitOr(bitShiftLeft(toUInt64(${bucketDaySql(wallMsSql('xc.1', spec.zone), spec.buckets)} + ${bucketOffset}), ${bucketShift}), bitOr(bitShiftLeft(toUInt64(${maxDepth - 1}${inWindow.join('')}), ${depthShift}), toUInt64(xo)))`;
  const bucket = (k: string) => `bitShiftRight(${k}, ${bucketShift})`;
  const depth = `toUInt64(${maxDepth} - bitAnd(bitShiftRight(xk, ${depthShift}), ${maxDepth}))`;
  const best = `(toInt64(${bucket('xk')}) - ${bucketOffset}, ${spec.on ? 'xv' : "''"}, ${depth}, xc)`;
  return [
    [`arrayMap((xo, xc) -> ${key}, arrayEnumerate(chains), chains) AS keys`],
    [
      'arraySort(keys) AS ord',
      'arraySort((xc, xk) -> xk, chains, keys) AS sortedChains',
      ...(spec.on ? ['arraySort((xv, xk) -> xk, S, keys) AS sortedSegs'] : []),
    ],
    [
      // The first attempt of each bucket; the key before the first is 0, no bucket's.
      `arrayFilter((xa, xk, xq) -> ${bucket('xk')} != ${bucket('xq')}, arrayMap((xk, xc${spec.on ? ', xv' : ''}) -> ${best}, ord, sortedChains${spec.on ? ', sortedSegs' : ''}), ord, arrayPopBack(arrayPushFront(ord, toUInt64(0)))) AS bests`,
    ],
  ];
}

/**
 * A user's events travel as one UInt64 each, time in the high bits and step mask in the low 20
 * (MAX_FUNNEL_STEPS): grouping and sorting one integer column is about twice as fast as a tuple,
 * and the sort order is the same (time, then mask).
 */
const MASK_BITS = 20;

function perUserSql(spec: FunnelSpec, events: ChSql): ChSql {
  if (spec.steps.length > MASK_BITS) throw new Error(`A funnel has at most ${MASK_BITS} steps`);
  const packed = `bitOr(bitShiftLeft(toUInt64(t), ${MASK_BITS}), mask)`;
  const unpack = (x: string) =>
    `arrayMap(xp -> toInt64(bitShiftRight(${x}, ${MASK_BITS})), ev) AS times, arrayMap(xp -> bitAnd(${x}, ${2 ** MASK_BITS - 1}), ev) AS masks`;
  const columns = spec.on
    ? `arraySort(groupArray((${packed}, seg))) AS ev, ${unpack('xp.1')}, ev.2 AS segs`
    : `arraySort(groupArray(${packed})) AS ev, ${unpack('xp')}`;
  return chSql`SELECT ${chCompiled(columns)} FROM (${events}) GROUP BY user`;
}

/**
 * `resolve`: whether to resolve ids (QueryRunner.resolvesIdentities); `lookup`: through
 * identity_lookup rather than the join with identity_map (QueryRunner.identityLookup).
 */
export function funnelSql(scope: ProjectScope, spec: FunnelSpec, resolve = true, lookup = true): BoundQuery {
  const perUser = perUserSql(spec, eventsSql(scope, spec, resolve, lookup));
  const layers = [...sameInstantLayers(spec), ...attemptsLayers(spec), ...bestPerBucketLayers(spec)];
  const users = layers.reduce(
    (from, columns) => chSql`SELECT *, ${chCompiled(columns.join(',\n      '))} FROM (${from})`,
    perUser,
  );
  const tally = tallySql(spec, users);
  const select = spec.on
    ? chSql`SELECT bucket, label AS segment, labelRank AS rank, labelCounts AS counts, arrayMap(x -> toString(x), labelPrevious) AS previous_ms,
        arrayMap(x -> toString(x), labelStart) AS start_ms FROM (${rankedSql(tally)})`
    : chSql`SELECT bucket, segment, counts, arrayMap(x -> toString(x), previous) AS previous_ms, arrayMap(x -> toString(x), start) AS start_ms FROM (${tally})`;
  // Each layer stays its own expression step: merged into one, ClickHouse 26.7 evaluates a
  // same-instant branch (`if(dup, …)`) for every user when two layers' branches share its input,
  // which is wrong (arrays of unequal length) as well as slow.
  const sql = chSql`${select}\n    SETTINGS query_plan_merge_expressions = 0`;
  const bounds = rangeParams(spec);
  return renderChSql(sql, {
    params: {
      ...bucketParams(spec.buckets, spec.fromDay),
      stepEvents: [...new Set(spec.steps.map((step) => step.event))],
      ...bounds,
      // A later step may come up to the window after the last possible start (a day more for the
      // offset changes a window in calendar days may span).
      scanEndMs: bounds.toEndMs + spec.windowMs + (spec.calendarWindow ? DAY_MS : 0),
      windowMs: spec.windowMs,
      ...(spec.on && { limit: spec.limit }),
    },
  });
}

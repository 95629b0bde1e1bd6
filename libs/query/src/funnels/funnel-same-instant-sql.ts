import { FunnelSpec } from './funnel-spec';

/** Step 2 of funnelSql (funnel-sql.ts): same-instant groups, each acting through its first event. */

/**
 * The most consecutive steps from `step` that distinct events of one same-instant group (an
 * Array(UInt64) of masks) can fill: the sets of events used after each step are carried forward
 * until none extends. Identical masks beyond their step count cannot all be used and are dropped
 * first; a group keeps at most 64 events. `id` keeps the lambda names of nested uses apart.
 */
function groupReachSql(group: string, step: number | string, steps: number, id: string): string {
  const [q, a, k, r, e, fold] = ['q', 'a', 'k', 'r', 'e', 'fold'].map((name) => `x${name}${id}`);
  const reduced = `arraySlice(arrayFilter((xm${id}, xu${id}) -> xu${id} <= bitCount(xm${id}), ${group}, arrayEnumerateUniq(${group})), 1, 64)`;
  const extend =
    `arrayDistinct(arrayFlatten(arrayMap(${r} -> arrayMap(${e} -> toUInt64(bitOr(${r}, bitShiftLeft(toUInt64(1), ${e} - 1))), ` +
    `arrayFilter(${e} -> NOT bitTest(${r}, ${e} - 1) AND bitTest(${q}[${e}], ${k}), arrayEnumerate(${q}))), ${a}.1)))`;
  const folded = `arrayFold((${a}, ${k}) -> (${extend}, toUInt64(${a}.2 + notEmpty(${a}.1))), range(${step}, ${steps}), (CAST([0], 'Array(UInt64)'), toUInt64(0)))`;
  return `arrayMap(${q} -> toUInt64((${folded} AS ${fold}).2 + notEmpty(${fold}.1) - 1), [${reduced}])[1]`;
}

/**
 * The `on` value naming a same-instant start group: among its step-1 events that can start the
 * group's deepest fill, the smallest value (events without one last).
 */
function groupSegmentSql(steps: number): string {
  const withoutE = 'arrayFilter((xmw, xiw) -> xiw != xes, xgs, arrayEnumerate(xgs))';
  const canStart = `bitTest(xgs[xes], 0) AND 1 + ${groupReachSql(withoutE, 1, steps, 'w')} = ${groupReachSql('xgs', 0, steps, 'z')}`;
  return `arraySort(xv -> (isNull(xv), ifNull(xv, '')), arrayFilter((xvs, xes) -> ${canStart}, xss, arrayEnumerate(xgs)))[1]`;
}

/**
 * Each list is one SELECT over the one before: ClickHouse expands an alias into every expression
 * that names it, so a chain of aliases grows the query tree exponentially while columns of a
 * subquery are computed once.
 */
export type Layers = string[][];

/**
 * Step 2, only for users with same-instant events (`dup`): each group of such events acts through
 * its first event. `fillMasks` holds there the steps the group can fill (the OR of its masks), 0 on
 * its other events, so the chain never lands on them; `reachAll[s·len + i]` the reach of the group
 * from step s. Users without such events (nearly all) keep their masks and a reach of 1.
 */
export function sameInstantLayers(spec: FunnelSpec): Layers {
  const n = spec.steps.length;
  // Per event: a per-group value (computed once, bound to xpg) at each group's first event, `otherwise` on the others.
  const onFirst = (perGroup: string, otherwise: string, read = (group: string) => group) =>
    `arrayMap(xpg -> arrayMap((xf, xc) -> if(xf, ${read('xpg[xc]')}, ${otherwise}), newGroup, arrayCumSum(newGroup)), [${perGroup}])[1]`;
  const groups = 'arraySplit((xm, xf) -> xf, masks, newGroup)';
  // Per group, its reach from every step (one matching search written once, run per step).
  const groupReaches = `arrayMap(xg -> arrayMap(xs -> ${groupReachSql('xg', 'xs', n, 'r')}, range(${n})), xgm)`;
  const reachAll = `arrayMap(xgr -> arrayFlatten(arrayMap(xs -> ${onFirst('xgr', '0', (group) => `${group}[xs + 1]`)}, range(${n}))), [${groupReaches}])[1]`;
  const columns = [
    `if(dup, arrayMap(xgm -> ${reachAll}, [${groups}])[1], CAST([], 'Array(UInt64)')) AS reachAll`,
    `if(dup, arrayMap(xgm -> ${onFirst("arrayMap(xg -> arrayReduce('groupBitOr', xg), xgm)", '0')}, [${groups}])[1], masks) AS fillMasks`,
  ];
  if (spec.on) {
    const segments = `arrayMap((xgs, xss) -> ${groupSegmentSql(n)}, xgm, arraySplit((xv, xf) -> xf, segs, newGroup))`;
    columns.push(`if(dup, arrayMap(xgm -> ${onFirst(segments, 'NULL')}, [${groups}])[1], segs) AS startSegs`);
  }
  return [
    [
      // arrayDifference starts with 0: a second 0 is a same-instant pair (no lambda, one array).
      'countEqual(arrayDifference(times), 0) > 1 AS dup',
      'length(times) AS len',
      'arrayEnumerate(times) AS idx',
    ],
    [
      "if(dup, arrayMap((xd, xi) -> xi = 1 OR xd != 0, arrayDifference(times), idx), CAST([], 'Array(UInt8)')) AS newGroup",
    ],
    columns,
  ];
}

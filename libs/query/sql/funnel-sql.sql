-- Rendered by `npm run sql:render` from libs/query/src/funnels/funnel-sql.ts; do not edit (test/rendered-sql/rendered-sql-files.ts lists the builders).

-- funnelSql
-- inputs: project 1, 2024-03-04 to 2024-04-02; steps Viewed page, Signed up, Purchased; window 7 days; daily buckets; limit 255; merged ids, identity_lookup
-- parameters:
--   bucketFromDay Int64      = 19786
--   bucketDays Int64         = 1
--   windowMs Int64           = 604800000
--   fromMs Int64             = 1709510400000
--   toEndMs Int64            = 1712102400000
--   step0 String             = "Viewed page"
--   step1 String             = "Signed up"
--   step2 String             = "Purchased"
--   p0 UInt32                = 1
--   stepEvents Array(String) = ["Viewed page","Signed up","Purchased"]
--   scanEndMs Int64          = 1712707200000
SELECT bucket,
  segment,
  counts,
  arrayMap(x -> toString(x), previous) AS previous_ms,
  arrayMap(x -> toString(x), start) AS start_ms
FROM (
  SELECT bucket,
    segment,
    [count(), countIf(depth > 1), countIf(depth > 2)] AS counts,
    [toInt64(0), sumIf(chain.2 - chain.1, depth > 1), sumIf(chain.3 - chain.2, depth > 2)] AS previous,
    [toInt64(0), sumIf(chain.2 - chain.1, depth > 1), sumIf(chain.3 - chain.1, depth > 2)] AS start
  FROM (
    SELECT best.1 AS bucket,
      '' AS segment,
      best.3 AS depth,
      best.4 AS chain
    FROM (
      SELECT *,
        arrayFilter((xa, xk, xq) -> bitShiftRight(xk, 38) != bitShiftRight(xq, 38), arrayMap((xk, xc) -> (toInt64(bitShiftRight(xk, 38)) - 4194304, '', toUInt64(63 - bitAnd(bitShiftRight(xk, 32), 63)), xc), ord, sortedChains), ord, arrayPopBack(arrayPushFront(ord, toUInt64(0)))) AS bests
      FROM (
        SELECT *,
          arraySort(keys) AS ord,
          arraySort((xc, xk) -> xk, chains, keys) AS sortedChains
        FROM (
          SELECT *,
            arrayMap((xo, xc) -> bitOr(bitShiftLeft(toUInt64(({bucketFromDay:Int64} + intDiv(intDiv(xc.1, 86400000) - {bucketFromDay:Int64}, {bucketDays:Int64}) * {bucketDays:Int64}) + 4194304), 38), bitOr(bitShiftLeft(toUInt64(62 - (xc.2 <= xc.1 + {windowMs:Int64}) - (xc.3 <= xc.1 + {windowMs:Int64})), 32), toUInt64(xo))), arrayEnumerate(chains), chains) AS keys
          FROM (
            SELECT *,
              arrayFilter((xc, xs) -> xs, if(dup, arrayMap((xt, xr, xh1, xh2) -> (xt, if(1 < 0 + xr, xt, multiIf(xr = 1, xh1.1, toInt64(9223372036854775807))), if(2 < 0 + xr, xt, multiIf(xr = 1, xh1.2, xr = 2, xh2.1, toInt64(9223372036854775807)))), times, arraySlice(reachAll, 0 * len + 1, len), H1, H2), arrayMap((xt, xh1) -> (xt, xh1.1, xh1.2), times, H1)), isStart) AS chains
            FROM (
              SELECT *,
                arrayMap((xm, xt) -> bitTest(xm, 0) AND xt >= {fromMs:Int64} AND xt < {toEndMs:Int64}, fillMasks, times) AS isStart
              FROM (
                SELECT *,
                  arrayShiftLeft(arrayReverseFill((xw, xm) -> bitTest(xm, 1), if(dup, arrayMap((xt, xm, xr, xh2) -> if(bitTest(xm, 1), (xt, if(2 < 1 + xr, xt, multiIf(xr = 1, xh2.1, toInt64(9223372036854775807)))), (toInt64(9223372036854775807), toInt64(9223372036854775807))), times, fillMasks, arraySlice(reachAll, 1 * len + 1, len), H2), arrayMap((xt, xm, xh2) -> if(bitTest(xm, 1), (xt, xh2.1), (toInt64(9223372036854775807), toInt64(9223372036854775807))), times, fillMasks, H2)), fillMasks), 1, (toInt64(9223372036854775807), toInt64(9223372036854775807))) AS H1
                FROM (
                  SELECT *,
                    arrayShiftLeft(arrayReverseFill((xw, xm) -> bitTest(xm, 2), arrayMap((xt, xm) -> if(bitTest(xm, 2), tuple(xt), tuple(toInt64(9223372036854775807))), times, fillMasks), fillMasks), 1, tuple(toInt64(9223372036854775807))) AS H2
                  FROM (
                    SELECT *,
                      if(dup, arrayMap(xgm -> arrayMap(xgr -> arrayFlatten(arrayMap(xs -> arrayMap(xpg -> arrayMap((xf, xc) -> if(xf, xpg[xc][xs + 1], 0), newGroup, arrayCumSum(newGroup)), [xgr])[1], range(3))), [arrayMap(xg -> arrayMap(xs -> arrayMap(xqr -> toUInt64((arrayFold((xar, xkr) -> (arrayDistinct(arrayFlatten(arrayMap(xrr -> arrayMap(xer -> toUInt64(bitOr(xrr, bitShiftLeft(toUInt64(1), xer - 1))), arrayFilter(xer -> NOT bitTest(xrr, xer - 1) AND bitTest(xqr[xer], xkr), arrayEnumerate(xqr))), xar.1))), toUInt64(xar.2 + notEmpty(xar.1))), range(xs, 3), (CAST([0], 'Array(UInt64)'), toUInt64(0))) AS xfoldr).2 + notEmpty(xfoldr.1) - 1), [arraySlice(arrayFilter((xmr, xur) -> xur <= bitCount(xmr), xg, arrayEnumerateUniq(xg)), 1, 64)])[1], range(3)), xgm)])[1], [arraySplit((xm, xf) -> xf, masks, newGroup)])[1], CAST([], 'Array(UInt64)')) AS reachAll,
                      if(dup, arrayMap(xgm -> arrayMap(xpg -> arrayMap((xf, xc) -> if(xf, xpg[xc], 0), newGroup, arrayCumSum(newGroup)), [arrayMap(xg -> arrayReduce('groupBitOr', xg), xgm)])[1], [arraySplit((xm, xf) -> xf, masks, newGroup)])[1], masks) AS fillMasks
                    FROM (
                      SELECT *,
                        if(dup, arrayMap((xd, xi) -> xi = 1 OR xd != 0, arrayDifference(times), idx), CAST([], 'Array(UInt8)')) AS newGroup
                      FROM (
                        SELECT *,
                          countEqual(arrayDifference(times), 0) > 1 AS dup,
                          length(times) AS len,
                          arrayEnumerate(times) AS idx
                        FROM (
                          SELECT arraySort(groupArray(bitOr(bitShiftLeft(toUInt64(t), 20), mask))) AS ev,
                            arrayMap(xp -> toInt64(bitShiftRight(xp, 20)), ev) AS times,
                            arrayMap(xp -> bitAnd(xp, 1048575), ev) AS masks
                          FROM (
                            SELECT person_key AS user,
                              toUnixTimestamp64Milli(time) AS t,
                              bitShiftLeft(toUInt64(event = {step0:String} AND 1), 0) + bitShiftLeft(toUInt64(event = {step1:String} AND 1), 1) + bitShiftLeft(toUInt64(event = {step2:String} AND 1), 2) AS mask
                            FROM (
                              SELECT project_id,
                                event,
                                time,
                                properties,
                                insert_id,
                                processed_at,
                                distinct_id,
                                bitXor(user_key, joinGet('identity_lookup', 'delta', toUInt64(user_key))) AS person_key
                              FROM events FINAL
                              WHERE project_id = {p0:UInt32}
                            )
                            WHERE project_id = {p0:UInt32}
                              AND event IN {stepEvents:Array(String)}
                              AND time >= fromUnixTimestamp64Milli({fromMs:Int64}, 'UTC')
                              AND time < fromUnixTimestamp64Milli({scanEndMs:Int64}, 'UTC')
                              AND 1
                              AND mask != 0
                          )
                          GROUP BY user
                        )
                      )
                    )
                  )
                )
              )
            )
          )
        )
      )
    )
    ARRAY JOIN bests AS best
  )
  GROUP BY bucket, segment
)
SETTINGS query_plan_merge_expressions = 0

-- funnelSql
-- inputs: project 1, 2024-03-04 to 2024-04-02; steps Signed up, Purchased where amount > 10; funnel where plan != "free"; window 1 day; weekly; on plan, limit 10; merged ids, identity_lookup
-- parameters:
--   limit UInt32             = 10
--   windowMs Int64           = 86400000
--   fromMs Int64             = 1709510400000
--   toEndMs Int64            = 1712102400000
--   step0 String             = "Signed up"
--   step1 String             = "Purchased"
--   s1_0 String              = "amount"
--   s1_1 Float64             = "10"
--   on_0 String              = "plan"
--   p0 UInt32                = 1
--   stepEvents Array(String) = ["Signed up","Purchased"]
--   scanEndMs Int64          = 1712188800000
--   f0_0 String              = "plan"
--   f0_1 String              = "free"
SELECT bucket,
  label AS segment,
  labelRank AS rank,
  labelCounts AS counts,
  arrayMap(x -> toString(x), labelPrevious) AS previous_ms,
  arrayMap(x -> toString(x), labelStart) AS start_ms
FROM (
  SELECT bucket,
    if(rank <= {limit:UInt32}, segment, '$other') AS label,
    min(rank) AS labelRank,
    sumForEach(counts) AS labelCounts,
    sumForEach(previous) AS labelPrevious,
    sumForEach(start) AS labelStart
  FROM (
    SELECT *,
      dense_rank() OVER (ORDER BY total DESC, segment ASC) AS rank
    FROM (
      SELECT *,
        sum(counts[1]) OVER (PARTITION BY segment) AS total
      FROM (
        SELECT bucket,
          segment,
          [count(), countIf(depth > 1)] AS counts,
          [toInt64(0), sumIf(chain.2 - chain.1, depth > 1)] AS previous,
          [toInt64(0), sumIf(chain.2 - chain.1, depth > 1)] AS start
        FROM (
          SELECT best.1 AS bucket,
            ifNull(best.2, 'undefined') AS segment,
            best.3 AS depth,
            best.4 AS chain
          FROM (
            SELECT *,
              arrayFilter((xa, xk, xq) -> bitShiftRight(xk, 38) != bitShiftRight(xq, 38), arrayMap((xk, xc, xv) -> (toInt64(bitShiftRight(xk, 38)) - 4194304, xv, toUInt64(63 - bitAnd(bitShiftRight(xk, 32), 63)), xc), ord, sortedChains, sortedSegs), ord, arrayPopBack(arrayPushFront(ord, toUInt64(0)))) AS bests
            FROM (
              SELECT *,
                arraySort(keys) AS ord,
                arraySort((xc, xk) -> xk, chains, keys) AS sortedChains,
                arraySort((xv, xk) -> xk, S, keys) AS sortedSegs
              FROM (
                SELECT *,
                  arrayMap((xo, xc) -> bitOr(bitShiftLeft(toUInt64((intDiv(xc.1, 86400000) - (intDiv(xc.1, 86400000) + 3) % 7) + 4194304), 38), bitOr(bitShiftLeft(toUInt64(62 - (xc.2 <= xc.1 + {windowMs:Int64})), 32), toUInt64(xo))), arrayEnumerate(chains), chains) AS keys
                FROM (
                  SELECT *,
                    arrayFilter((xc, xs) -> xs, if(dup, arrayMap((xt, xr, xh1) -> (xt, if(1 < 0 + xr, xt, multiIf(xr = 1, xh1.1, toInt64(9223372036854775807)))), times, arraySlice(reachAll, 0 * len + 1, len), H1), arrayMap((xt, xh1) -> (xt, xh1.1), times, H1)), isStart) AS chains,
                    arrayFilter((xv, xs) -> xs, startSegs, isStart) AS S
                  FROM (
                    SELECT *,
                      arrayMap((xm, xt) -> bitTest(xm, 0) AND xt >= {fromMs:Int64} AND xt < {toEndMs:Int64}, fillMasks, times) AS isStart
                    FROM (
                      SELECT *,
                        arrayShiftLeft(arrayReverseFill((xw, xm) -> bitTest(xm, 1), arrayMap((xt, xm) -> if(bitTest(xm, 1), tuple(xt), tuple(toInt64(9223372036854775807))), times, fillMasks), fillMasks), 1, tuple(toInt64(9223372036854775807))) AS H1
                      FROM (
                        SELECT *,
                          if(dup, arrayMap(xgm -> arrayMap(xgr -> arrayFlatten(arrayMap(xs -> arrayMap(xpg -> arrayMap((xf, xc) -> if(xf, xpg[xc][xs + 1], 0), newGroup, arrayCumSum(newGroup)), [xgr])[1], range(2))), [arrayMap(xg -> arrayMap(xs -> arrayMap(xqr -> toUInt64((arrayFold((xar, xkr) -> (arrayDistinct(arrayFlatten(arrayMap(xrr -> arrayMap(xer -> toUInt64(bitOr(xrr, bitShiftLeft(toUInt64(1), xer - 1))), arrayFilter(xer -> NOT bitTest(xrr, xer - 1) AND bitTest(xqr[xer], xkr), arrayEnumerate(xqr))), xar.1))), toUInt64(xar.2 + notEmpty(xar.1))), range(xs, 2), (CAST([0], 'Array(UInt64)'), toUInt64(0))) AS xfoldr).2 + notEmpty(xfoldr.1) - 1), [arraySlice(arrayFilter((xmr, xur) -> xur <= bitCount(xmr), xg, arrayEnumerateUniq(xg)), 1, 64)])[1], range(2)), xgm)])[1], [arraySplit((xm, xf) -> xf, masks, newGroup)])[1], CAST([], 'Array(UInt64)')) AS reachAll,
                          if(dup, arrayMap(xgm -> arrayMap(xpg -> arrayMap((xf, xc) -> if(xf, xpg[xc], 0), newGroup, arrayCumSum(newGroup)), [arrayMap(xg -> arrayReduce('groupBitOr', xg), xgm)])[1], [arraySplit((xm, xf) -> xf, masks, newGroup)])[1], masks) AS fillMasks,
                          if(dup, arrayMap(xgm -> arrayMap(xpg -> arrayMap((xf, xc) -> if(xf, xpg[xc], NULL), newGroup, arrayCumSum(newGroup)), [arrayMap((xgs, xss) -> arraySort(xv -> (isNull(xv), ifNull(xv, '')), arrayFilter((xvs, xes) -> bitTest(xgs[xes], 0) AND 1 + arrayMap(xqw -> toUInt64((arrayFold((xaw, xkw) -> (arrayDistinct(arrayFlatten(arrayMap(xrw -> arrayMap(xew -> toUInt64(bitOr(xrw, bitShiftLeft(toUInt64(1), xew - 1))), arrayFilter(xew -> NOT bitTest(xrw, xew - 1) AND bitTest(xqw[xew], xkw), arrayEnumerate(xqw))), xaw.1))), toUInt64(xaw.2 + notEmpty(xaw.1))), range(1, 2), (CAST([0], 'Array(UInt64)'), toUInt64(0))) AS xfoldw).2 + notEmpty(xfoldw.1) - 1), [arraySlice(arrayFilter((xmw, xuw) -> xuw <= bitCount(xmw), arrayFilter((xmw, xiw) -> xiw != xes, xgs, arrayEnumerate(xgs)), arrayEnumerateUniq(arrayFilter((xmw, xiw) -> xiw != xes, xgs, arrayEnumerate(xgs)))), 1, 64)])[1] = arrayMap(xqz -> toUInt64((arrayFold((xaz, xkz) -> (arrayDistinct(arrayFlatten(arrayMap(xrz -> arrayMap(xez -> toUInt64(bitOr(xrz, bitShiftLeft(toUInt64(1), xez - 1))), arrayFilter(xez -> NOT bitTest(xrz, xez - 1) AND bitTest(xqz[xez], xkz), arrayEnumerate(xqz))), xaz.1))), toUInt64(xaz.2 + notEmpty(xaz.1))), range(0, 2), (CAST([0], 'Array(UInt64)'), toUInt64(0))) AS xfoldz).2 + notEmpty(xfoldz.1) - 1), [arraySlice(arrayFilter((xmz, xuz) -> xuz <= bitCount(xmz), xgs, arrayEnumerateUniq(xgs)), 1, 64)])[1], xss, arrayEnumerate(xgs)))[1], xgm, arraySplit((xv, xf) -> xf, segs, newGroup))])[1], [arraySplit((xm, xf) -> xf, masks, newGroup)])[1], segs) AS startSegs
                        FROM (
                          SELECT *,
                            if(dup, arrayMap((xd, xi) -> xi = 1 OR xd != 0, arrayDifference(times), idx), CAST([], 'Array(UInt8)')) AS newGroup
                          FROM (
                            SELECT *,
                              countEqual(arrayDifference(times), 0) > 1 AS dup,
                              length(times) AS len,
                              arrayEnumerate(times) AS idx
                            FROM (
                              SELECT arraySort(groupArray((bitOr(bitShiftLeft(toUInt64(t), 20), mask), seg))) AS ev,
                                arrayMap(xp -> toInt64(bitShiftRight(xp.1, 20)), ev) AS times,
                                arrayMap(xp -> bitAnd(xp.1, 1048575), ev) AS masks,
                                ev.2 AS segs
                              FROM (
                                SELECT person_key AS user,
                                  toUnixTimestamp64Milli(time) AS t,
                                  bitShiftLeft(toUInt64(event = {step0:String} AND 1), 0) + bitShiftLeft(toUInt64(event = {step1:String} AND ((match((JSONExtractRaw(properties, {s1_0:String}) AS s1_v0), '^-?[0-9]') AND (toFloat64OrZero(s1_v0) > {s1_1:Float64})))), 1) AS mask,
                                  if(bitTest(mask, 0), (if(((startsWith((JSONExtractRaw(properties, {on_0:String}) AS on_v1), '"') AS on_v0) OR (match(on_v1, '^-?[0-9]') AS on_v2) OR ((on_v1 IN ('true', 'false')) AS on_v3) OR (on_v1 = 'null')), multiIf(on_v0, JSONExtractString(on_v1), on_v2, replaceRegexpOne(toString(toFloat64OrZero(on_v1) + 0), 'e([0-9])', 'e+\\1'), on_v3, if((on_v1 = 'true'), 'true', 'false'), 'null'), NULL)), NULL) AS seg
                                FROM (
                                  SELECT project_id,
                                    event,
                                    time,
                                    properties,
                                    insert_id,
                                    processed_at,
                                    distinct_id,
                                    bitXor(user_key, joinGet('identity_lookup', 'delta', toUInt64(user_key))) AS person_key
                                  FROM events FINAL
                                  WHERE project_id = {p0:UInt32}
                                )
                                WHERE project_id = {p0:UInt32}
                                  AND event IN {stepEvents:Array(String)}
                                  AND time >= fromUnixTimestamp64Milli({fromMs:Int64}, 'UTC')
                                  AND time < fromUnixTimestamp64Milli({scanEndMs:Int64}, 'UTC')
                                  AND ((NOT (startsWith((JSONExtractRaw(properties, {f0_0:String}) AS f0_v0), '"') AND (JSONExtractString(f0_v0) = {f0_1:String}))))
                                  AND mask != 0
                              )
                              GROUP BY user
                            )
                          )
                        )
                      )
                    )
                  )
                )
              )
            )
          )
          ARRAY JOIN bests AS best
        )
        GROUP BY bucket, segment
      )
    )
  )
  GROUP BY bucket, label
)
SETTINGS query_plan_merge_expressions = 0

-- funnelSql
-- inputs: project 1, 2024-03-04 to 2024-04-02; steps Viewed page, Signed up, Purchased; window 7 days; monthly; limit 255; merged ids on a cluster (the identity_map join)
-- parameters:
--   windowMs Int64           = 604800000
--   fromMs Int64             = 1709510400000
--   toEndMs Int64            = 1712102400000
--   step0 String             = "Viewed page"
--   step1 String             = "Signed up"
--   step2 String             = "Purchased"
--   p0 UInt32                = 1
--   stepEvents Array(String) = ["Viewed page","Signed up","Purchased"]
--   scanEndMs Int64          = 1712707200000
SELECT bucket,
  segment,
  counts,
  arrayMap(x -> toString(x), previous) AS previous_ms,
  arrayMap(x -> toString(x), start) AS start_ms
FROM (
  SELECT bucket,
    segment,
    [count(), countIf(depth > 1), countIf(depth > 2)] AS counts,
    [toInt64(0), sumIf(chain.2 - chain.1, depth > 1), sumIf(chain.3 - chain.2, depth > 2)] AS previous,
    [toInt64(0), sumIf(chain.2 - chain.1, depth > 1), sumIf(chain.3 - chain.1, depth > 2)] AS start
  FROM (
    SELECT best.1 AS bucket,
      '' AS segment,
      best.3 AS depth,
      best.4 AS chain
    FROM (
      SELECT *,
        arrayFilter((xa, xk, xq) -> bitShiftRight(xk, 38) != bitShiftRight(xq, 38), arrayMap((xk, xc) -> (toInt64(bitShiftRight(xk, 38)) - 4194304, '', toUInt64(63 - bitAnd(bitShiftRight(xk, 32), 63)), xc), ord, sortedChains), ord, arrayPopBack(arrayPushFront(ord, toUInt64(0)))) AS bests
      FROM (
        SELECT *,
          arraySort(keys) AS ord,
          arraySort((xc, xk) -> xk, chains, keys) AS sortedChains
        FROM (
          SELECT *,
            arrayMap((xo, xc) -> bitOr(bitShiftLeft(toUInt64(toInt64(toStartOfMonth(fromUnixTimestamp64Milli(xc.1, 'UTC'))) + 4194304), 38), bitOr(bitShiftLeft(toUInt64(62 - (xc.2 <= xc.1 + {windowMs:Int64}) - (xc.3 <= xc.1 + {windowMs:Int64})), 32), toUInt64(xo))), arrayEnumerate(chains), chains) AS keys
          FROM (
            SELECT *,
              arrayFilter((xc, xs) -> xs, if(dup, arrayMap((xt, xr, xh1, xh2) -> (xt, if(1 < 0 + xr, xt, multiIf(xr = 1, xh1.1, toInt64(9223372036854775807))), if(2 < 0 + xr, xt, multiIf(xr = 1, xh1.2, xr = 2, xh2.1, toInt64(9223372036854775807)))), times, arraySlice(reachAll, 0 * len + 1, len), H1, H2), arrayMap((xt, xh1) -> (xt, xh1.1, xh1.2), times, H1)), isStart) AS chains
            FROM (
              SELECT *,
                arrayMap((xm, xt) -> bitTest(xm, 0) AND xt >= {fromMs:Int64} AND xt < {toEndMs:Int64}, fillMasks, times) AS isStart
              FROM (
                SELECT *,
                  arrayShiftLeft(arrayReverseFill((xw, xm) -> bitTest(xm, 1), if(dup, arrayMap((xt, xm, xr, xh2) -> if(bitTest(xm, 1), (xt, if(2 < 1 + xr, xt, multiIf(xr = 1, xh2.1, toInt64(9223372036854775807)))), (toInt64(9223372036854775807), toInt64(9223372036854775807))), times, fillMasks, arraySlice(reachAll, 1 * len + 1, len), H2), arrayMap((xt, xm, xh2) -> if(bitTest(xm, 1), (xt, xh2.1), (toInt64(9223372036854775807), toInt64(9223372036854775807))), times, fillMasks, H2)), fillMasks), 1, (toInt64(9223372036854775807), toInt64(9223372036854775807))) AS H1
                FROM (
                  SELECT *,
                    arrayShiftLeft(arrayReverseFill((xw, xm) -> bitTest(xm, 2), arrayMap((xt, xm) -> if(bitTest(xm, 2), tuple(xt), tuple(toInt64(9223372036854775807))), times, fillMasks), fillMasks), 1, tuple(toInt64(9223372036854775807))) AS H2
                  FROM (
                    SELECT *,
                      if(dup, arrayMap(xgm -> arrayMap(xgr -> arrayFlatten(arrayMap(xs -> arrayMap(xpg -> arrayMap((xf, xc) -> if(xf, xpg[xc][xs + 1], 0), newGroup, arrayCumSum(newGroup)), [xgr])[1], range(3))), [arrayMap(xg -> arrayMap(xs -> arrayMap(xqr -> toUInt64((arrayFold((xar, xkr) -> (arrayDistinct(arrayFlatten(arrayMap(xrr -> arrayMap(xer -> toUInt64(bitOr(xrr, bitShiftLeft(toUInt64(1), xer - 1))), arrayFilter(xer -> NOT bitTest(xrr, xer - 1) AND bitTest(xqr[xer], xkr), arrayEnumerate(xqr))), xar.1))), toUInt64(xar.2 + notEmpty(xar.1))), range(xs, 3), (CAST([0], 'Array(UInt64)'), toUInt64(0))) AS xfoldr).2 + notEmpty(xfoldr.1) - 1), [arraySlice(arrayFilter((xmr, xur) -> xur <= bitCount(xmr), xg, arrayEnumerateUniq(xg)), 1, 64)])[1], range(3)), xgm)])[1], [arraySplit((xm, xf) -> xf, masks, newGroup)])[1], CAST([], 'Array(UInt64)')) AS reachAll,
                      if(dup, arrayMap(xgm -> arrayMap(xpg -> arrayMap((xf, xc) -> if(xf, xpg[xc], 0), newGroup, arrayCumSum(newGroup)), [arrayMap(xg -> arrayReduce('groupBitOr', xg), xgm)])[1], [arraySplit((xm, xf) -> xf, masks, newGroup)])[1], masks) AS fillMasks
                    FROM (
                      SELECT *,
                        if(dup, arrayMap((xd, xi) -> xi = 1 OR xd != 0, arrayDifference(times), idx), CAST([], 'Array(UInt8)')) AS newGroup
                      FROM (
                        SELECT *,
                          countEqual(arrayDifference(times), 0) > 1 AS dup,
                          length(times) AS len,
                          arrayEnumerate(times) AS idx
                        FROM (
                          SELECT arraySort(groupArray(bitOr(bitShiftLeft(toUInt64(t), 20), mask))) AS ev,
                            arrayMap(xp -> toInt64(bitShiftRight(xp, 20)), ev) AS times,
                            arrayMap(xp -> bitAnd(xp, 1048575), ev) AS masks
                          FROM (
                            SELECT distinct_id AS user,
                              toUnixTimestamp64Milli(time) AS t,
                              bitShiftLeft(toUInt64(event = {step0:String} AND 1), 0) + bitShiftLeft(toUInt64(event = {step1:String} AND 1), 1) + bitShiftLeft(toUInt64(event = {step2:String} AND 1), 2) AS mask
                            FROM (
                              SELECT project_id,
                                event,
                                time,
                                if(idm.person_id = '', ev.distinct_id, idm.person_id) AS distinct_id,
                                ev.distinct_id AS original_distinct_id,
                                insert_id,
                                properties,
                                processed_at
                              FROM events AS ev FINAL
                              LEFT ANY JOIN (
                                SELECT distinct_id,
                                  person_id
                                FROM identity_map FINAL
                                WHERE project_id = {p0:UInt32}
                                  AND person_id != distinct_id
                              ) AS idm ON idm.distinct_id = ev.distinct_id
                              WHERE ev.project_id = {p0:UInt32}
                            )
                            WHERE project_id = {p0:UInt32}
                              AND event IN {stepEvents:Array(String)}
                              AND time >= fromUnixTimestamp64Milli({fromMs:Int64}, 'UTC')
                              AND time < fromUnixTimestamp64Milli({scanEndMs:Int64}, 'UTC')
                              AND 1
                              AND mask != 0
                          )
                          GROUP BY user
                        )
                      )
                    )
                  )
                )
              )
            )
          )
        )
      )
    )
    ARRAY JOIN bests AS best
  )
  GROUP BY bucket, segment
)
SETTINGS query_plan_merge_expressions = 0

-- funnelSql
-- inputs: project 1, 2024-03-04 to 2024-04-02; steps Viewed page, Viewed page; window 1 hour; 3-day buckets; limit 255; no merged id
-- parameters:
--   bucketFromDay Int64      = 19786
--   bucketDays Int64         = 3
--   windowMs Int64           = 3600000
--   fromMs Int64             = 1709510400000
--   toEndMs Int64            = 1712102400000
--   step0 String             = "Viewed page"
--   step1 String             = "Viewed page"
--   p0 UInt32                = 1
--   stepEvents Array(String) = ["Viewed page"]
--   scanEndMs Int64          = 1712106000000
SELECT bucket,
  segment,
  counts,
  arrayMap(x -> toString(x), previous) AS previous_ms,
  arrayMap(x -> toString(x), start) AS start_ms
FROM (
  SELECT bucket,
    segment,
    [count(), countIf(depth > 1)] AS counts,
    [toInt64(0), sumIf(chain.2 - chain.1, depth > 1)] AS previous,
    [toInt64(0), sumIf(chain.2 - chain.1, depth > 1)] AS start
  FROM (
    SELECT best.1 AS bucket,
      '' AS segment,
      best.3 AS depth,
      best.4 AS chain
    FROM (
      SELECT *,
        arrayFilter((xa, xk, xq) -> bitShiftRight(xk, 38) != bitShiftRight(xq, 38), arrayMap((xk, xc) -> (toInt64(bitShiftRight(xk, 38)) - 4194304, '', toUInt64(63 - bitAnd(bitShiftRight(xk, 32), 63)), xc), ord, sortedChains), ord, arrayPopBack(arrayPushFront(ord, toUInt64(0)))) AS bests
      FROM (
        SELECT *,
          arraySort(keys) AS ord,
          arraySort((xc, xk) -> xk, chains, keys) AS sortedChains
        FROM (
          SELECT *,
            arrayMap((xo, xc) -> bitOr(bitShiftLeft(toUInt64(({bucketFromDay:Int64} + intDiv(intDiv(xc.1, 86400000) - {bucketFromDay:Int64}, {bucketDays:Int64}) * {bucketDays:Int64}) + 4194304), 38), bitOr(bitShiftLeft(toUInt64(62 - (xc.2 <= xc.1 + {windowMs:Int64})), 32), toUInt64(xo))), arrayEnumerate(chains), chains) AS keys
          FROM (
            SELECT *,
              arrayFilter((xc, xs) -> xs, if(dup, arrayMap((xt, xr, xh1) -> (xt, if(1 < 0 + xr, xt, multiIf(xr = 1, xh1.1, toInt64(9223372036854775807)))), times, arraySlice(reachAll, 0 * len + 1, len), H1), arrayMap((xt, xh1) -> (xt, xh1.1), times, H1)), isStart) AS chains
            FROM (
              SELECT *,
                arrayMap((xm, xt) -> bitTest(xm, 0) AND xt >= {fromMs:Int64} AND xt < {toEndMs:Int64}, fillMasks, times) AS isStart
              FROM (
                SELECT *,
                  arrayShiftLeft(arrayReverseFill((xw, xm) -> bitTest(xm, 1), arrayMap((xt, xm) -> if(bitTest(xm, 1), tuple(xt), tuple(toInt64(9223372036854775807))), times, fillMasks), fillMasks), 1, tuple(toInt64(9223372036854775807))) AS H1
                FROM (
                  SELECT *,
                    if(dup, arrayMap(xgm -> arrayMap(xgr -> arrayFlatten(arrayMap(xs -> arrayMap(xpg -> arrayMap((xf, xc) -> if(xf, xpg[xc][xs + 1], 0), newGroup, arrayCumSum(newGroup)), [xgr])[1], range(2))), [arrayMap(xg -> arrayMap(xs -> arrayMap(xqr -> toUInt64((arrayFold((xar, xkr) -> (arrayDistinct(arrayFlatten(arrayMap(xrr -> arrayMap(xer -> toUInt64(bitOr(xrr, bitShiftLeft(toUInt64(1), xer - 1))), arrayFilter(xer -> NOT bitTest(xrr, xer - 1) AND bitTest(xqr[xer], xkr), arrayEnumerate(xqr))), xar.1))), toUInt64(xar.2 + notEmpty(xar.1))), range(xs, 2), (CAST([0], 'Array(UInt64)'), toUInt64(0))) AS xfoldr).2 + notEmpty(xfoldr.1) - 1), [arraySlice(arrayFilter((xmr, xur) -> xur <= bitCount(xmr), xg, arrayEnumerateUniq(xg)), 1, 64)])[1], range(2)), xgm)])[1], [arraySplit((xm, xf) -> xf, masks, newGroup)])[1], CAST([], 'Array(UInt64)')) AS reachAll,
                    if(dup, arrayMap(xgm -> arrayMap(xpg -> arrayMap((xf, xc) -> if(xf, xpg[xc], 0), newGroup, arrayCumSum(newGroup)), [arrayMap(xg -> arrayReduce('groupBitOr', xg), xgm)])[1], [arraySplit((xm, xf) -> xf, masks, newGroup)])[1], masks) AS fillMasks
                  FROM (
                    SELECT *,
                      if(dup, arrayMap((xd, xi) -> xi = 1 OR xd != 0, arrayDifference(times), idx), CAST([], 'Array(UInt8)')) AS newGroup
                    FROM (
                      SELECT *,
                        countEqual(arrayDifference(times), 0) > 1 AS dup,
                        length(times) AS len,
                        arrayEnumerate(times) AS idx
                      FROM (
                        SELECT arraySort(groupArray(bitOr(bitShiftLeft(toUInt64(t), 20), mask))) AS ev,
                          arrayMap(xp -> toInt64(bitShiftRight(xp, 20)), ev) AS times,
                          arrayMap(xp -> bitAnd(xp, 1048575), ev) AS masks
                        FROM (
                          SELECT user_key AS user,
                            toUnixTimestamp64Milli(time) AS t,
                            bitShiftLeft(toUInt64(event = {step0:String} AND 1), 0) + bitShiftLeft(toUInt64(event = {step1:String} AND 1), 1) AS mask
                          FROM events FINAL
                          WHERE project_id = {p0:UInt32}
                            AND event IN {stepEvents:Array(String)}
                            AND time >= fromUnixTimestamp64Milli({fromMs:Int64}, 'UTC')
                            AND time < fromUnixTimestamp64Milli({scanEndMs:Int64}, 'UTC')
                            AND 1
                            AND mask != 0
                        )
                        GROUP BY user
                      )
                    )
                  )
                )
              )
            )
          )
        )
      )
    )
    ARRAY JOIN bests AS best
  )
  GROUP BY bucket, segment
)
SETTINGS query_plan_merge_expressions = 0

-- funnelSql
-- inputs: project 1, 2024-03-04 to 2024-04-02 in Europe/Berlin; steps Viewed page, Signed up, Purchased; window 1 day on its clocks; weekly; limit 255; no merged id
-- parameters:
--   timeZone String          = "Europe/Berlin"
--   windowMs Int64           = 86400000
--   fromMs Int64             = 1709506800000
--   toEndMs Int64            = 1712095200000
--   step0 String             = "Viewed page"
--   step1 String             = "Signed up"
--   step2 String             = "Purchased"
--   p0 UInt32                = 1
--   stepEvents Array(String) = ["Viewed page","Signed up","Purchased"]
--   scanEndMs Int64          = 1712268000000
SELECT bucket,
  segment,
  counts,
  arrayMap(x -> toString(x), previous) AS previous_ms,
  arrayMap(x -> toString(x), start) AS start_ms
FROM (
  SELECT bucket,
    segment,
    [count(), countIf(depth > 1), countIf(depth > 2)] AS counts,
    [toInt64(0), sumIf(chain.2 - chain.1, depth > 1), sumIf(chain.3 - chain.2, depth > 2)] AS previous,
    [toInt64(0), sumIf(chain.2 - chain.1, depth > 1), sumIf(chain.3 - chain.1, depth > 2)] AS start
  FROM (
    SELECT best.1 AS bucket,
      '' AS segment,
      best.3 AS depth,
      best.4 AS chain
    FROM (
      SELECT *,
        arrayFilter((xa, xk, xq) -> bitShiftRight(xk, 38) != bitShiftRight(xq, 38), arrayMap((xk, xc) -> (toInt64(bitShiftRight(xk, 38)) - 4194304, '', toUInt64(63 - bitAnd(bitShiftRight(xk, 32), 63)), xc), ord, sortedChains), ord, arrayPopBack(arrayPushFront(ord, toUInt64(0)))) AS bests
      FROM (
        SELECT *,
          arraySort(keys) AS ord,
          arraySort((xc, xk) -> xk, chains, keys) AS sortedChains
        FROM (
          SELECT *,
            arrayMap((xo, xc) -> bitOr(bitShiftLeft(toUInt64((intDiv((xc.1 + timeZoneOffset(fromUnixTimestamp64Milli(xc.1, {timeZone:String})) * 1000), 86400000) - (intDiv((xc.1 + timeZoneOffset(fromUnixTimestamp64Milli(xc.1, {timeZone:String})) * 1000), 86400000) + 3) % 7) + 4194304), 38), bitOr(bitShiftLeft(toUInt64(62 - (xc.2 <= (xc.1 + {windowMs:Int64} + (timeZoneOffset(fromUnixTimestamp64Milli(xc.1, {timeZone:String})) * 1000) - (timeZoneOffset(fromUnixTimestamp64Milli((xc.1 + {windowMs:Int64}), {timeZone:String})) * 1000))) - (xc.3 <= (xc.1 + {windowMs:Int64} + (timeZoneOffset(fromUnixTimestamp64Milli(xc.1, {timeZone:String})) * 1000) - (timeZoneOffset(fromUnixTimestamp64Milli((xc.1 + {windowMs:Int64}), {timeZone:String})) * 1000)))), 32), toUInt64(xo))), arrayEnumerate(chains), chains) AS keys
          FROM (
            SELECT *,
              arrayFilter((xc, xs) -> xs, if(dup, arrayMap((xt, xr, xh1, xh2) -> (xt, if(1 < 0 + xr, xt, multiIf(xr = 1, xh1.1, toInt64(9223372036854775807))), if(2 < 0 + xr, xt, multiIf(xr = 1, xh1.2, xr = 2, xh2.1, toInt64(9223372036854775807)))), times, arraySlice(reachAll, 0 * len + 1, len), H1, H2), arrayMap((xt, xh1) -> (xt, xh1.1, xh1.2), times, H1)), isStart) AS chains
            FROM (
              SELECT *,
                arrayMap((xm, xt) -> bitTest(xm, 0) AND xt >= {fromMs:Int64} AND xt < {toEndMs:Int64}, fillMasks, times) AS isStart
              FROM (
                SELECT *,
                  arrayShiftLeft(arrayReverseFill((xw, xm) -> bitTest(xm, 1), if(dup, arrayMap((xt, xm, xr, xh2) -> if(bitTest(xm, 1), (xt, if(2 < 1 + xr, xt, multiIf(xr = 1, xh2.1, toInt64(9223372036854775807)))), (toInt64(9223372036854775807), toInt64(9223372036854775807))), times, fillMasks, arraySlice(reachAll, 1 * len + 1, len), H2), arrayMap((xt, xm, xh2) -> if(bitTest(xm, 1), (xt, xh2.1), (toInt64(9223372036854775807), toInt64(9223372036854775807))), times, fillMasks, H2)), fillMasks), 1, (toInt64(9223372036854775807), toInt64(9223372036854775807))) AS H1
                FROM (
                  SELECT *,
                    arrayShiftLeft(arrayReverseFill((xw, xm) -> bitTest(xm, 2), arrayMap((xt, xm) -> if(bitTest(xm, 2), tuple(xt), tuple(toInt64(9223372036854775807))), times, fillMasks), fillMasks), 1, tuple(toInt64(9223372036854775807))) AS H2
                  FROM (
                    SELECT *,
                      if(dup, arrayMap(xgm -> arrayMap(xgr -> arrayFlatten(arrayMap(xs -> arrayMap(xpg -> arrayMap((xf, xc) -> if(xf, xpg[xc][xs + 1], 0), newGroup, arrayCumSum(newGroup)), [xgr])[1], range(3))), [arrayMap(xg -> arrayMap(xs -> arrayMap(xqr -> toUInt64((arrayFold((xar, xkr) -> (arrayDistinct(arrayFlatten(arrayMap(xrr -> arrayMap(xer -> toUInt64(bitOr(xrr, bitShiftLeft(toUInt64(1), xer - 1))), arrayFilter(xer -> NOT bitTest(xrr, xer - 1) AND bitTest(xqr[xer], xkr), arrayEnumerate(xqr))), xar.1))), toUInt64(xar.2 + notEmpty(xar.1))), range(xs, 3), (CAST([0], 'Array(UInt64)'), toUInt64(0))) AS xfoldr).2 + notEmpty(xfoldr.1) - 1), [arraySlice(arrayFilter((xmr, xur) -> xur <= bitCount(xmr), xg, arrayEnumerateUniq(xg)), 1, 64)])[1], range(3)), xgm)])[1], [arraySplit((xm, xf) -> xf, masks, newGroup)])[1], CAST([], 'Array(UInt64)')) AS reachAll,
                      if(dup, arrayMap(xgm -> arrayMap(xpg -> arrayMap((xf, xc) -> if(xf, xpg[xc], 0), newGroup, arrayCumSum(newGroup)), [arrayMap(xg -> arrayReduce('groupBitOr', xg), xgm)])[1], [arraySplit((xm, xf) -> xf, masks, newGroup)])[1], masks) AS fillMasks
                    FROM (
                      SELECT *,
                        if(dup, arrayMap((xd, xi) -> xi = 1 OR xd != 0, arrayDifference(times), idx), CAST([], 'Array(UInt8)')) AS newGroup
                      FROM (
                        SELECT *,
                          countEqual(arrayDifference(times), 0) > 1 AS dup,
                          length(times) AS len,
                          arrayEnumerate(times) AS idx
                        FROM (
                          SELECT arraySort(groupArray(bitOr(bitShiftLeft(toUInt64(t), 20), mask))) AS ev,
                            arrayMap(xp -> toInt64(bitShiftRight(xp, 20)), ev) AS times,
                            arrayMap(xp -> bitAnd(xp, 1048575), ev) AS masks
                          FROM (
                            SELECT user_key AS user,
                              toUnixTimestamp64Milli(time) AS t,
                              bitShiftLeft(toUInt64(event = {step0:String} AND 1), 0) + bitShiftLeft(toUInt64(event = {step1:String} AND 1), 1) + bitShiftLeft(toUInt64(event = {step2:String} AND 1), 2) AS mask
                            FROM events FINAL
                            WHERE project_id = {p0:UInt32}
                              AND event IN {stepEvents:Array(String)}
                              AND time >= fromUnixTimestamp64Milli({fromMs:Int64}, 'UTC')
                              AND time < fromUnixTimestamp64Milli({scanEndMs:Int64}, 'UTC')
                              AND 1
                              AND mask != 0
                          )
                          GROUP BY user
                        )
                      )
                    )
                  )
                )
              )
            )
          )
        )
      )
    )
    ARRAY JOIN bests AS best
  )
  GROUP BY bucket, segment
)
SETTINGS query_plan_merge_expressions = 0

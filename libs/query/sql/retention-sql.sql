-- Rendered by `npm run sql:render` from libs/query/src/retention/retention-sql.ts; do not edit (test/rendered-sql/rendered-sql-files.ts lists the builders).

-- retentionSql
-- inputs: project 1, 2024-03-04 to 2024-04-02; birth: born Signed up, returns Purchased; daily; 7 intervals, bounded; merged ids
-- parameters:
--   bucketFromDay Int64 = 19786
--   bucketDays Int64    = 1
--   intervalCount Int64 = 7
--   intervalMs Int64    = 86400000
--   bornEvent String    = "Signed up"
--   toEndMs Int64       = 1712102400000
--   returnEvent String  = "Purchased"
--   fromMs Int64        = 1709510400000
--   returnsEndMs Int64  = 1712793600000
--   p0 UInt32           = 1
SELECT cohort,
  count() AS first,
  sumMap(intervals, arrayResize(CAST([], 'Array(UInt64)'), length(intervals), toUInt64(1))) AS returned,
  (CAST([], 'Array(Int64)'), CAST([], 'Array(UInt64)')) AS last_returned
FROM (
  SELECT ({bucketFromDay:Int64} + intDiv(intDiv(birth.1, 86400000) - {bucketFromDay:Int64}, {bucketDays:Int64}) * {bucketDays:Int64}) AS cohort,
    arrayDistinct(arrayFilter(xi -> xi <= {intervalCount:Int64}, arrayMap(xr -> toInt64(intDiv(xr - birth.1, {intervalMs:Int64})), arrayFilter(xr -> xr >= birth.1 AND 1, returns)))) AS intervals
  FROM (
    SELECT if(countIf(isBorn) > 0, [(minIf(t, isBorn), '')], CAST([], 'Array(Tuple(Int64, String))')) AS births,
      groupArrayIf(t, isReturn) AS returns
    FROM (
      SELECT distinct_id,
        toUnixTimestamp64Milli(time) AS t,
        event = {bornEvent:String} AND time < fromUnixTimestamp64Milli({toEndMs:Int64}, 'UTC') AND 1 AS isBorn,
        event = {returnEvent:String} AND time >= fromUnixTimestamp64Milli({fromMs:Int64}, 'UTC') AND time < fromUnixTimestamp64Milli({returnsEndMs:Int64}, 'UTC') AND 1 AS isReturn,
        CAST(NULL, 'Nullable(String)') AS bornKey
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
        AND (isBorn OR isReturn)
    )
    GROUP BY distinct_id
  )
  ARRAY JOIN births AS birth
  WHERE birth.1 >= {fromMs:Int64}
)
GROUP BY cohort

-- retentionSql
-- inputs: project 1, 2024-03-04 to 2024-04-02; compounded: Opened where n > 1; monthly; 3 intervals, unbounded; no merged id
-- parameters:
--   intervalCount Int64 = 3
--   returnEvent String  = "Opened"
--   fromMs Int64        = 1709510400000
--   toEndMs Int64       = 1712102400000
--   w_0 String          = "n"
--   w_1 Float64         = "1"
--   returnsEndMs Int64  = 1722816000000
--   p0 UInt32           = 1
SELECT cohort,
  count() AS first,
  sumMap(intervals, arrayResize(CAST([], 'Array(UInt64)'), length(intervals), toUInt64(1))) AS returned,
  sumMap(if(empty(intervals), CAST([], 'Array(Int64)'), [arrayMax(intervals)]), if(empty(intervals), CAST([], 'Array(UInt64)'), [toUInt64(1)])) AS last_returned
FROM (
  SELECT toInt64(toStartOfMonth(fromUnixTimestamp64Milli(birth.1, 'UTC'))) AS cohort,
    arrayDistinct(arrayFilter(xi -> xi <= {intervalCount:Int64}, arrayMap(xr -> toInt64(((toYear(fromUnixTimestamp64Milli(xr.1, 'UTC')) * 12 + toMonth(fromUnixTimestamp64Milli(xr.1, 'UTC')) - toYear(fromUnixTimestamp64Milli(birth.1, 'UTC')) * 12 - toMonth(fromUnixTimestamp64Milli(birth.1, 'UTC'))) - (addMonths(fromUnixTimestamp64Milli(birth.1, 'UTC'), (toYear(fromUnixTimestamp64Milli(xr.1, 'UTC')) * 12 + toMonth(fromUnixTimestamp64Milli(xr.1, 'UTC')) - toYear(fromUnixTimestamp64Milli(birth.1, 'UTC')) * 12 - toMonth(fromUnixTimestamp64Milli(birth.1, 'UTC')))) > fromUnixTimestamp64Milli(xr.1, 'UTC')))), arrayFilter(xr -> xr.1 >= birth.1 AND NOT (xr.1 = birth.1 AND ifNull(xr.2 = birth.2, 0)), returns)))) AS intervals
  FROM (
    SELECT arraySort(groupArrayIf((t, assumeNotNull(bornKey)), isBorn)) AS candidates,
      arrayFilter((xc, xk) -> xk = 1 OR toInt64(toStartOfMonth(fromUnixTimestamp64Milli(xc.1, 'UTC'))) != toInt64(toStartOfMonth(fromUnixTimestamp64Milli(candidates[xk - 1].1, 'UTC'))), candidates, arrayEnumerate(candidates)) AS births,
      groupArrayIf((t, bornKey), isReturn) AS returns
    FROM (
      SELECT distinct_id,
        toUnixTimestamp64Milli(time) AS t,
        event = {returnEvent:String} AND time >= fromUnixTimestamp64Milli({fromMs:Int64}, 'UTC') AND time < fromUnixTimestamp64Milli({toEndMs:Int64}, 'UTC') AND 1 AND ((match((JSONExtractRaw(properties, {w_0:String}) AS w_v0), '^-?[0-9]') AND (toFloat64OrZero(w_v0) > {w_1:Float64}))) AS isBorn,
        event = {returnEvent:String} AND time >= fromUnixTimestamp64Milli({fromMs:Int64}, 'UTC') AND time < fromUnixTimestamp64Milli({returnsEndMs:Int64}, 'UTC') AND ((match((JSONExtractRaw(properties, {w_0:String}) AS w_v0), '^-?[0-9]') AND (toFloat64OrZero(w_v0) > {w_1:Float64}))) AS isReturn,
        if(isBorn, concat(insert_id, '\0', event), NULL) AS bornKey
      FROM events FINAL
      WHERE project_id = {p0:UInt32}
        AND (isBorn OR isReturn)
    )
    GROUP BY distinct_id
  )
  ARRAY JOIN births AS birth
  WHERE birth.1 >= {fromMs:Int64}
)
GROUP BY cohort

-- retentionSql
-- inputs: project 1, 2024-03-04 to 2024-04-02 in Europe/Berlin; birth: born Signed up, returns Purchased; weekly; 4 intervals, bounded; no merged id
-- parameters:
--   timeZone String     = "Europe/Berlin"
--   intervalCount Int64 = 4
--   intervalMs Int64    = 604800000
--   bornEvent String    = "Signed up"
--   toEndMs Int64       = 1712095200000
--   returnEvent String  = "Purchased"
--   fromMs Int64        = 1709506800000
--   returnsEndMs Int64  = 1715205600000
--   p0 UInt32           = 1
SELECT cohort,
  count() AS first,
  sumMap(intervals, arrayResize(CAST([], 'Array(UInt64)'), length(intervals), toUInt64(1))) AS returned,
  (CAST([], 'Array(Int64)'), CAST([], 'Array(UInt64)')) AS last_returned
FROM (
  SELECT (intDiv((birth.1 + timeZoneOffset(fromUnixTimestamp64Milli(birth.1, {timeZone:String})) * 1000), 86400000) - (intDiv((birth.1 + timeZoneOffset(fromUnixTimestamp64Milli(birth.1, {timeZone:String})) * 1000), 86400000) + 3) % 7) AS cohort,
    arrayDistinct(arrayFilter(xi -> xi <= {intervalCount:Int64}, arrayMap(xr -> toInt64(greatest(0, intDiv((xr + timeZoneOffset(fromUnixTimestamp64Milli(xr, {timeZone:String})) * 1000) - (birth.1 + timeZoneOffset(fromUnixTimestamp64Milli(birth.1, {timeZone:String})) * 1000), {intervalMs:Int64}))), arrayFilter(xr -> xr >= birth.1 AND 1, returns)))) AS intervals
  FROM (
    SELECT if(countIf(isBorn) > 0, [(minIf(t, isBorn), '')], CAST([], 'Array(Tuple(Int64, String))')) AS births,
      groupArrayIf(t, isReturn) AS returns
    FROM (
      SELECT distinct_id,
        toUnixTimestamp64Milli(time) AS t,
        event = {bornEvent:String} AND time < fromUnixTimestamp64Milli({toEndMs:Int64}, 'UTC') AND 1 AS isBorn,
        event = {returnEvent:String} AND time >= fromUnixTimestamp64Milli({fromMs:Int64}, 'UTC') AND time < fromUnixTimestamp64Milli({returnsEndMs:Int64}, 'UTC') AND 1 AS isReturn,
        CAST(NULL, 'Nullable(String)') AS bornKey
      FROM events FINAL
      WHERE project_id = {p0:UInt32}
        AND (isBorn OR isReturn)
    )
    GROUP BY distinct_id
  )
  ARRAY JOIN births AS birth
  WHERE birth.1 >= {fromMs:Int64}
)
GROUP BY cohort

-- Rendered by `npm run sql:render` from libs/query/src/segmentation/numeric-buckets.ts; do not edit (test/rendered-sql/rendered-sql-files.ts lists the builders).

-- numericRangeSql
-- inputs: project 1, 2024-03-04 to 2024-04-02; Paid on amount; merged ids
-- parameters:
--   onn_0 String         = "amount"
--   onn_1 Float64        = "1"
--   onv_0 String         = "amount"
--   p0 UInt32            = 1
--   events Array(String) = ["Paid"]
--   fromMs Int64         = 1709510400000
--   toEndMs Int64        = 1712102400000
SELECT min(v) AS low,
  max(v) AS high,
  count() AS n
FROM (
  SELECT distinct_id,
    (intDiv(toUnixTimestamp64Milli(time), 86400000) * 86400000) AS key,
    if(((NOT (NOT (match((JSONExtractRaw(properties, {onn_0:String}) AS onn_v0), '^-?[0-9]') AND isFinite((toFloat64OrZero(onn_v0) * {onn_1:Float64})))))), toFloat64OrZero(ifNull((if(((startsWith((JSONExtractRaw(properties, {onv_0:String}) AS onv_v1), '"') AS onv_v0) OR (match(onv_v1, '^-?[0-9]') AS onv_v2) OR ((onv_v1 IN ('true', 'false')) AS onv_v3) OR (onv_v1 = 'null')), multiIf(onv_v0, JSONExtractString(onv_v1), onv_v2, replaceRegexpOne(toString(toFloat64OrZero(onv_v1) + 0), 'e([0-9])', 'e+\\1'), onv_v3, if((onv_v1 = 'true'), 'true', 'false'), 'null'), NULL)), '')), 0) AS v
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
    AND event IN {events:Array(String)}
    AND time >= fromUnixTimestamp64Milli({fromMs:Int64}, 'UTC')
    AND time < fromUnixTimestamp64Milli({toEndMs:Int64}, 'UTC')
    AND 1
    AND ((NOT (NOT (match((JSONExtractRaw(properties, {onn_0:String}) AS onn_v0), '^-?[0-9]') AND isFinite((toFloat64OrZero(onn_v0) * {onn_1:Float64}))))))
)

-- numericSlotsSql
-- inputs: project 1, 2024-03-04 to 2024-04-02; Paid on amount, slots 5 wide; merged ids
-- parameters:
--   width Float64        = "5"
--   onn_0 String         = "amount"
--   onn_1 Float64        = "1"
--   onv_0 String         = "amount"
--   p0 UInt32            = 1
--   events Array(String) = ["Paid"]
--   fromMs Int64         = 1709510400000
--   toEndMs Int64        = 1712102400000
SELECT key,
  toInt64(floor(v / {width:Float64})) AS slot,
  count() AS events,
  uniqExact(distinct_id) AS users
FROM (
  SELECT distinct_id,
    (intDiv(toUnixTimestamp64Milli(time), 86400000) * 86400000) AS key,
    if(((NOT (NOT (match((JSONExtractRaw(properties, {onn_0:String}) AS onn_v0), '^-?[0-9]') AND isFinite((toFloat64OrZero(onn_v0) * {onn_1:Float64})))))), toFloat64OrZero(ifNull((if(((startsWith((JSONExtractRaw(properties, {onv_0:String}) AS onv_v1), '"') AS onv_v0) OR (match(onv_v1, '^-?[0-9]') AS onv_v2) OR ((onv_v1 IN ('true', 'false')) AS onv_v3) OR (onv_v1 = 'null')), multiIf(onv_v0, JSONExtractString(onv_v1), onv_v2, replaceRegexpOne(toString(toFloat64OrZero(onv_v1) + 0), 'e([0-9])', 'e+\\1'), onv_v3, if((onv_v1 = 'true'), 'true', 'false'), 'null'), NULL)), '')), 0) AS v
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
    AND event IN {events:Array(String)}
    AND time >= fromUnixTimestamp64Milli({fromMs:Int64}, 'UTC')
    AND time < fromUnixTimestamp64Milli({toEndMs:Int64}, 'UTC')
    AND 1
    AND ((NOT (NOT (match((JSONExtractRaw(properties, {onn_0:String}) AS onn_v0), '^-?[0-9]') AND isFinite((toFloat64OrZero(onn_v0) * {onn_1:Float64}))))))
)
GROUP BY key, slot

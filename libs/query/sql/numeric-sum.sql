-- Rendered by `npm run sql:render` from libs/query/src/segmentation/numeric-sum.ts; do not edit (test/rendered-sql/rendered-sql-files.ts lists the builders).

-- numericSeriesSql
-- inputs: project 1, 2024-03-04 to 2024-04-02; Paid; sum of amount; weekly; where plan = "pro"
-- parameters:
--   onn_0 String  = "amount"
--   onn_1 Float64 = "1"
--   onv_0 String  = "amount"
--   p0 UInt32     = 1
--   event String  = "Paid"
--   fromMs Int64  = 1709510400000
--   toEndMs Int64 = 1712102400000
--   w_0 String    = "plan"
--   w_1 String    = "pro"
SELECT ((intDiv(toUnixTimestamp64Milli(time), 86400000) - (intDiv(toUnixTimestamp64Milli(time), 86400000) + 3) % 7) * 86400000) AS key,
  sum(if(((NOT (NOT (match((JSONExtractRaw(properties, {onn_0:String}) AS onn_v0), '^-?[0-9]') AND isFinite((toFloat64OrZero(onn_v0) * {onn_1:Float64})))))), toFloat64OrZero(ifNull((if(((startsWith((JSONExtractRaw(properties, {onv_0:String}) AS onv_v1), '"') AS onv_v0) OR (match(onv_v1, '^-?[0-9]') AS onv_v2) OR ((onv_v1 IN ('true', 'false')) AS onv_v3) OR (onv_v1 = 'null')), multiIf(onv_v0, JSONExtractString(onv_v1), onv_v2, replaceRegexpOne(toString(toFloat64OrZero(onv_v1) + 0), 'e([0-9])', 'e+\\1'), onv_v3, if((onv_v1 = 'true'), 'true', 'false'), 'null'), NULL)), '')), 0)) AS total,
  count() AS events
FROM events FINAL
WHERE project_id = {p0:UInt32}
  AND event = {event:String}
  AND time >= fromUnixTimestamp64Milli({fromMs:Int64}, 'UTC')
  AND time < fromUnixTimestamp64Milli({toEndMs:Int64}, 'UTC')
  AND ((startsWith((JSONExtractRaw(properties, {w_0:String}) AS w_v0), '"') AND (JSONExtractString(w_v0) = {w_1:String})))
GROUP BY key

-- Rendered by `npm run sql:render` from libs/query/src/events/event-catalog-sql.ts; do not edit (test/rendered-sql/rendered-sql-files.ts lists the builders).

-- topEventNamesSql
-- inputs: project 1; general; limit 10; since 2024-03-03
-- parameters:
--   p0 UInt32     = 1
--   sinceMs Int64 = 1709510400000
--   limit UInt32  = 10
SELECT event
FROM events FINAL
WHERE project_id = {p0:UInt32}
  AND time >= fromUnixTimestamp64Milli({sinceMs:Int64}, 'UTC')
GROUP BY event
ORDER BY count() DESC, event ASC
LIMIT {limit:UInt32}

-- topPropertiesSql
-- inputs: project 1; Opened; limit 10; since 2024-03-03
-- parameters:
--   p0 UInt32     = 1
--   p1 String     = "Opened"
--   sinceMs Int64 = 1709510400000
--   limit UInt32  = 10
SELECT name,
  count() AS count
FROM events FINAL
ARRAY JOIN JSONExtractKeys(properties) AS name
WHERE project_id = {p0:UInt32}
  AND event = {p1:String}
  AND time >= fromUnixTimestamp64Milli({sinceMs:Int64}, 'UTC')
GROUP BY name
ORDER BY count DESC, name ASC
LIMIT {limit:UInt32}

-- topPropertiesSql
-- inputs: project 1; every event; limit 2000; since 2024-03-03
-- parameters:
--   p0 UInt32     = 1
--   sinceMs Int64 = 1709510400000
--   limit UInt32  = 2000
SELECT name,
  count() AS count
FROM events FINAL
ARRAY JOIN JSONExtractKeys(properties) AS name
WHERE project_id = {p0:UInt32}
  AND time >= fromUnixTimestamp64Milli({sinceMs:Int64}, 'UTC')
GROUP BY name
ORDER BY count DESC, name ASC
LIMIT {limit:UInt32}

-- topValuesSql
-- inputs: project 1; Opened; values of $browser; limit 10; since 2024-03-03
-- parameters:
--   p_0 String    = "$browser"
--   p0 UInt32     = 1
--   event String  = "Opened"
--   sinceMs Int64 = 1709510400000
--   limit UInt32  = 10
SELECT value
FROM (
  SELECT (if(((startsWith((JSONExtractRaw(properties, {p_0:String}) AS p_v1), '"') AS p_v0) OR (match(p_v1, '^-?[0-9]') AS p_v2) OR ((p_v1 IN ('true', 'false')) AS p_v3) OR (p_v1 = 'null')), multiIf(p_v0, JSONExtractString(p_v1), p_v2, replaceRegexpOne(toString(toFloat64OrZero(p_v1) + 0), 'e([0-9])', 'e+\\1'), p_v3, if((p_v1 = 'true'), 'true', 'false'), 'null'), NULL)) AS value
  FROM events FINAL
  WHERE project_id = {p0:UInt32}
    AND event = {event:String}
    AND time >= fromUnixTimestamp64Milli({sinceMs:Int64}, 'UTC')
)
WHERE isNotNull(value)
GROUP BY value
ORDER BY count() DESC, value ASC
LIMIT {limit:UInt32}

-- Rendered by `npm run sql:render` from libs/query/src/profiles/profile-catalog-sql.ts; do not edit (test/rendered-sql/rendered-sql-files.ts lists the builders).

-- profilePropertiesSql
-- inputs: project 1; limit 2000
-- parameters:
--   p0 UInt32 = 1
--   p1 UInt32 = 100000
--   p2 UInt32 = 2000
SELECT name,
  count() AS count,
  topK(1)(type)[1] AS type
FROM (
  SELECT name,
    multiIf(JSONType(properties, name) = 'Bool', 'boolean', JSONType(properties, name) IN ('Int64', 'UInt64', 'Double'), 'number', JSONType(properties, name) = 'Array', 'list', JSONType(properties, name) = 'Object', 'object', match(JSONExtractString(properties, name), '^[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9][T ][0-9][0-9]:[0-9][0-9]:[0-9][0-9]'), 'datetime', 'string') AS type
  FROM (
    SELECT properties
    FROM profiles FINAL
    WHERE project_id = {p0:UInt32}
      AND group_key = ''
    LIMIT {p1:UInt32}
  )
  ARRAY JOIN JSONExtractKeys(properties) AS name
)
GROUP BY name
ORDER BY count DESC, name ASC
LIMIT {p2:UInt32}

-- revenueSql
-- inputs: project 1, 2024-03-04 to 2024-04-02; daily buckets
-- parameters:
--   bucketFromDay Int64 = 19786
--   bucketDays Int64    = 1
--   p0 UInt32           = 1
--   p1 Int64            = 1709510400000
--   p2 Int64            = 1712102400000
--   p3 Int64            = 1709510400000
--   p4 Int64            = 1712102400000
SELECT toNullable(({bucketFromDay:Int64} + intDiv(intDiv(ms, 86400000) - {bucketFromDay:Int64}, {bucketDays:Int64}) * {bucketDays:Int64})) AS bucket,
  sum(amount) AS amount,
  uniqExact(profile_id) AS paid_count
FROM (
  SELECT profile_id,
    JSONExtractFloat(tx, '$amount') AS amount,
    toUnixTimestamp64Milli(parseDateTime64BestEffortOrNull(JSONExtractString(tx, '$time'), 3, 'UTC')) AS ms
  FROM (
    SELECT profile_id,
      arrayJoin(JSONExtractArrayRaw(properties, '$transactions')) AS tx
    FROM profiles FINAL
    WHERE project_id = {p0:UInt32}
      AND group_key = ''
      AND JSONHas(properties, '$transactions')
  )
)
WHERE ms IS NOT NULL
  AND ms >= {p1:Int64}
  AND ms < {p2:Int64}
GROUP BY bucket
UNION ALL
SELECT NULL AS bucket,
  sum(amount) AS amount,
  uniqExact(profile_id) AS paid_count
FROM (
  SELECT profile_id,
    JSONExtractFloat(tx, '$amount') AS amount,
    toUnixTimestamp64Milli(parseDateTime64BestEffortOrNull(JSONExtractString(tx, '$time'), 3, 'UTC')) AS ms
  FROM (
    SELECT profile_id,
      arrayJoin(JSONExtractArrayRaw(properties, '$transactions')) AS tx
    FROM profiles FINAL
    WHERE project_id = {p0:UInt32}
      AND group_key = ''
      AND JSONHas(properties, '$transactions')
  )
)
WHERE ms IS NOT NULL
  AND ms >= {p3:Int64}
  AND ms < {p4:Int64}

-- revenueSql
-- inputs: project 1, 2024-03-04 to 2024-04-02; weeks
-- parameters:
--   p0 UInt32 = 1
--   p1 Int64  = 1709510400000
--   p2 Int64  = 1712102400000
--   p3 Int64  = 1709510400000
--   p4 Int64  = 1712102400000
SELECT toNullable((intDiv(ms, 86400000) - (intDiv(ms, 86400000) + 3) % 7)) AS bucket,
  sum(amount) AS amount,
  uniqExact(profile_id) AS paid_count
FROM (
  SELECT profile_id,
    JSONExtractFloat(tx, '$amount') AS amount,
    toUnixTimestamp64Milli(parseDateTime64BestEffortOrNull(JSONExtractString(tx, '$time'), 3, 'UTC')) AS ms
  FROM (
    SELECT profile_id,
      arrayJoin(JSONExtractArrayRaw(properties, '$transactions')) AS tx
    FROM profiles FINAL
    WHERE project_id = {p0:UInt32}
      AND group_key = ''
      AND JSONHas(properties, '$transactions')
  )
)
WHERE ms IS NOT NULL
  AND ms >= {p1:Int64}
  AND ms < {p2:Int64}
GROUP BY bucket
UNION ALL
SELECT NULL AS bucket,
  sum(amount) AS amount,
  uniqExact(profile_id) AS paid_count
FROM (
  SELECT profile_id,
    JSONExtractFloat(tx, '$amount') AS amount,
    toUnixTimestamp64Milli(parseDateTime64BestEffortOrNull(JSONExtractString(tx, '$time'), 3, 'UTC')) AS ms
  FROM (
    SELECT profile_id,
      arrayJoin(JSONExtractArrayRaw(properties, '$transactions')) AS tx
    FROM profiles FINAL
    WHERE project_id = {p0:UInt32}
      AND group_key = ''
      AND JSONHas(properties, '$transactions')
  )
)
WHERE ms IS NOT NULL
  AND ms >= {p3:Int64}
  AND ms < {p4:Int64}

-- userProfileCountSql
-- inputs: project 1
-- parameters:
--   p0 UInt32 = 1
SELECT count() AS profiles
FROM profiles FINAL
WHERE project_id = {p0:UInt32}
  AND group_key = ''

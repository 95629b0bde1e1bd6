-- Rendered by `npm run sql:render` from libs/query/src/insights/insights-sql.ts; do not edit (test/rendered-sql/rendered-sql-files.ts lists the builders).

-- insightsSql
-- inputs: project 1, 2024-03-04 to 2024-04-02; Opened total, Opened unique, Paid p90 of amount; daily; on plan, limit 5; merged ids, identity_lookup
-- parameters:
--   m0s_0 String   = "plan"
--   p0 UInt32      = 1
--   event0 String  = "Opened"
--   fromMs Int64   = 1709510400000
--   toEndMs Int64  = 1712102400000
--   limit UInt32   = 5
--   m1s_0 String   = "plan"
--   event1 String  = "Opened"
--   m2vn_0 String  = "amount"
--   m2vn_1 Float64 = "1"
--   m2vv_0 String  = "amount"
--   m2n_0 String   = "amount"
--   m2n_1 Float64  = "1"
--   m2s_0 String   = "plan"
--   event2 String  = "Paid"
SELECT toUInt32(0) AS metric,
  key,
  '$overall' AS segment,
  toFloat64(count()) AS value,
  toUInt64(0) AS rank
FROM (
  SELECT (intDiv(toUnixTimestamp64Milli(time), 86400000) * 86400000) AS key,
    user_key AS user,
    0 AS v,
    0 AS isNumber,
    (if(((startsWith((JSONExtractRaw(properties, {m0s_0:String}) AS m0s_v1), '"') AS m0s_v0) OR (match(m0s_v1, '^-?[0-9]') AS m0s_v2) OR ((m0s_v1 IN ('true', 'false')) AS m0s_v3) OR (m0s_v1 = 'null')), multiIf(m0s_v0, JSONExtractString(m0s_v1), m0s_v2, replaceRegexpOne(toString(toFloat64OrZero(m0s_v1) + 0), 'e([0-9])', 'e+\\1'), m0s_v3, if((m0s_v1 = 'true'), 'true', 'false'), 'null'), NULL)) AS seg
  FROM events FINAL
  WHERE project_id = {p0:UInt32}
    AND event = {event0:String}
    AND time >= fromUnixTimestamp64Milli({fromMs:Int64}, 'UTC')
    AND time < fromUnixTimestamp64Milli({toEndMs:Int64}, 'UTC')
    AND 1
)
GROUP BY key
UNION ALL
SELECT metric,
  key,
  segment,
  value,
  rank
FROM (
  SELECT *,
    dense_rank() OVER (ORDER BY total DESC, segment ASC) AS rank
  FROM (
    SELECT *,
      sum(events) OVER (PARTITION BY segment) AS total
    FROM (
      SELECT toUInt32(0) AS metric,
        key,
        assumeNotNull(seg) AS segment,
        toFloat64(count()) AS value,
        count() AS events
      FROM (
        SELECT (intDiv(toUnixTimestamp64Milli(time), 86400000) * 86400000) AS key,
          user_key AS user,
          0 AS v,
          0 AS isNumber,
          (if(((startsWith((JSONExtractRaw(properties, {m0s_0:String}) AS m0s_v1), '"') AS m0s_v0) OR (match(m0s_v1, '^-?[0-9]') AS m0s_v2) OR ((m0s_v1 IN ('true', 'false')) AS m0s_v3) OR (m0s_v1 = 'null')), multiIf(m0s_v0, JSONExtractString(m0s_v1), m0s_v2, replaceRegexpOne(toString(toFloat64OrZero(m0s_v1) + 0), 'e([0-9])', 'e+\\1'), m0s_v3, if((m0s_v1 = 'true'), 'true', 'false'), 'null'), NULL)) AS seg
        FROM events FINAL
        WHERE project_id = {p0:UInt32}
          AND event = {event0:String}
          AND time >= fromUnixTimestamp64Milli({fromMs:Int64}, 'UTC')
          AND time < fromUnixTimestamp64Milli({toEndMs:Int64}, 'UTC')
          AND 1
      )
      WHERE isNotNull(seg)
      GROUP BY key, segment
    )
  )
)
WHERE rank <= {limit:UInt32}
UNION ALL
SELECT toUInt32(1) AS metric,
  key,
  '$overall' AS segment,
  toFloat64(uniqExact(user)) AS value,
  toUInt64(0) AS rank
FROM (
  SELECT (intDiv(toUnixTimestamp64Milli(time), 86400000) * 86400000) AS key,
    person_key AS user,
    0 AS v,
    0 AS isNumber,
    (if(((startsWith((JSONExtractRaw(properties, {m1s_0:String}) AS m1s_v1), '"') AS m1s_v0) OR (match(m1s_v1, '^-?[0-9]') AS m1s_v2) OR ((m1s_v1 IN ('true', 'false')) AS m1s_v3) OR (m1s_v1 = 'null')), multiIf(m1s_v0, JSONExtractString(m1s_v1), m1s_v2, replaceRegexpOne(toString(toFloat64OrZero(m1s_v1) + 0), 'e([0-9])', 'e+\\1'), m1s_v3, if((m1s_v1 = 'true'), 'true', 'false'), 'null'), NULL)) AS seg
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
    AND event = {event1:String}
    AND time >= fromUnixTimestamp64Milli({fromMs:Int64}, 'UTC')
    AND time < fromUnixTimestamp64Milli({toEndMs:Int64}, 'UTC')
    AND 1
)
GROUP BY key
UNION ALL
SELECT metric,
  key,
  segment,
  value,
  rank
FROM (
  SELECT *,
    dense_rank() OVER (ORDER BY total DESC, segment ASC) AS rank
  FROM (
    SELECT *,
      sum(events) OVER (PARTITION BY segment) AS total
    FROM (
      SELECT toUInt32(1) AS metric,
        key,
        assumeNotNull(seg) AS segment,
        toFloat64(uniqExact(user)) AS value,
        count() AS events
      FROM (
        SELECT (intDiv(toUnixTimestamp64Milli(time), 86400000) * 86400000) AS key,
          person_key AS user,
          0 AS v,
          0 AS isNumber,
          (if(((startsWith((JSONExtractRaw(properties, {m1s_0:String}) AS m1s_v1), '"') AS m1s_v0) OR (match(m1s_v1, '^-?[0-9]') AS m1s_v2) OR ((m1s_v1 IN ('true', 'false')) AS m1s_v3) OR (m1s_v1 = 'null')), multiIf(m1s_v0, JSONExtractString(m1s_v1), m1s_v2, replaceRegexpOne(toString(toFloat64OrZero(m1s_v1) + 0), 'e([0-9])', 'e+\\1'), m1s_v3, if((m1s_v1 = 'true'), 'true', 'false'), 'null'), NULL)) AS seg
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
          AND event = {event1:String}
          AND time >= fromUnixTimestamp64Milli({fromMs:Int64}, 'UTC')
          AND time < fromUnixTimestamp64Milli({toEndMs:Int64}, 'UTC')
          AND 1
      )
      WHERE isNotNull(seg)
      GROUP BY key, segment
    )
  )
)
WHERE rank <= {limit:UInt32}
UNION ALL
SELECT toUInt32(2) AS metric,
  key,
  '$overall' AS segment,
  if(countIf(isNumber) = 0, 0, quantileExactInclusiveIf(0.9)(v, isNumber)) AS value,
  toUInt64(0) AS rank
FROM (
  SELECT (intDiv(toUnixTimestamp64Milli(time), 86400000) * 86400000) AS key,
    user_key AS user,
    if(((NOT (NOT (match((JSONExtractRaw(properties, {m2vn_0:String}) AS m2vn_v0), '^-?[0-9]') AND isFinite((toFloat64OrZero(m2vn_v0) * {m2vn_1:Float64})))))), toFloat64OrZero(ifNull((if(((startsWith((JSONExtractRaw(properties, {m2vv_0:String}) AS m2vv_v1), '"') AS m2vv_v0) OR (match(m2vv_v1, '^-?[0-9]') AS m2vv_v2) OR ((m2vv_v1 IN ('true', 'false')) AS m2vv_v3) OR (m2vv_v1 = 'null')), multiIf(m2vv_v0, JSONExtractString(m2vv_v1), m2vv_v2, replaceRegexpOne(toString(toFloat64OrZero(m2vv_v1) + 0), 'e([0-9])', 'e+\\1'), m2vv_v3, if((m2vv_v1 = 'true'), 'true', 'false'), 'null'), NULL)), '')), 0) AS v,
    ((NOT (NOT (match((JSONExtractRaw(properties, {m2n_0:String}) AS m2n_v0), '^-?[0-9]') AND isFinite((toFloat64OrZero(m2n_v0) * {m2n_1:Float64})))))) AS isNumber,
    (if(((startsWith((JSONExtractRaw(properties, {m2s_0:String}) AS m2s_v1), '"') AS m2s_v0) OR (match(m2s_v1, '^-?[0-9]') AS m2s_v2) OR ((m2s_v1 IN ('true', 'false')) AS m2s_v3) OR (m2s_v1 = 'null')), multiIf(m2s_v0, JSONExtractString(m2s_v1), m2s_v2, replaceRegexpOne(toString(toFloat64OrZero(m2s_v1) + 0), 'e([0-9])', 'e+\\1'), m2s_v3, if((m2s_v1 = 'true'), 'true', 'false'), 'null'), NULL)) AS seg
  FROM events FINAL
  WHERE project_id = {p0:UInt32}
    AND event = {event2:String}
    AND time >= fromUnixTimestamp64Milli({fromMs:Int64}, 'UTC')
    AND time < fromUnixTimestamp64Milli({toEndMs:Int64}, 'UTC')
    AND 1
)
GROUP BY key
UNION ALL
SELECT metric,
  key,
  segment,
  value,
  rank
FROM (
  SELECT *,
    dense_rank() OVER (ORDER BY total DESC, segment ASC) AS rank
  FROM (
    SELECT *,
      sum(events) OVER (PARTITION BY segment) AS total
    FROM (
      SELECT toUInt32(2) AS metric,
        key,
        assumeNotNull(seg) AS segment,
        if(countIf(isNumber) = 0, 0, quantileExactInclusiveIf(0.9)(v, isNumber)) AS value,
        count() AS events
      FROM (
        SELECT (intDiv(toUnixTimestamp64Milli(time), 86400000) * 86400000) AS key,
          user_key AS user,
          if(((NOT (NOT (match((JSONExtractRaw(properties, {m2vn_0:String}) AS m2vn_v0), '^-?[0-9]') AND isFinite((toFloat64OrZero(m2vn_v0) * {m2vn_1:Float64})))))), toFloat64OrZero(ifNull((if(((startsWith((JSONExtractRaw(properties, {m2vv_0:String}) AS m2vv_v1), '"') AS m2vv_v0) OR (match(m2vv_v1, '^-?[0-9]') AS m2vv_v2) OR ((m2vv_v1 IN ('true', 'false')) AS m2vv_v3) OR (m2vv_v1 = 'null')), multiIf(m2vv_v0, JSONExtractString(m2vv_v1), m2vv_v2, replaceRegexpOne(toString(toFloat64OrZero(m2vv_v1) + 0), 'e([0-9])', 'e+\\1'), m2vv_v3, if((m2vv_v1 = 'true'), 'true', 'false'), 'null'), NULL)), '')), 0) AS v,
          ((NOT (NOT (match((JSONExtractRaw(properties, {m2n_0:String}) AS m2n_v0), '^-?[0-9]') AND isFinite((toFloat64OrZero(m2n_v0) * {m2n_1:Float64})))))) AS isNumber,
          (if(((startsWith((JSONExtractRaw(properties, {m2s_0:String}) AS m2s_v1), '"') AS m2s_v0) OR (match(m2s_v1, '^-?[0-9]') AS m2s_v2) OR ((m2s_v1 IN ('true', 'false')) AS m2s_v3) OR (m2s_v1 = 'null')), multiIf(m2s_v0, JSONExtractString(m2s_v1), m2s_v2, replaceRegexpOne(toString(toFloat64OrZero(m2s_v1) + 0), 'e([0-9])', 'e+\\1'), m2s_v3, if((m2s_v1 = 'true'), 'true', 'false'), 'null'), NULL)) AS seg
        FROM events FINAL
        WHERE project_id = {p0:UInt32}
          AND event = {event2:String}
          AND time >= fromUnixTimestamp64Milli({fromMs:Int64}, 'UTC')
          AND time < fromUnixTimestamp64Milli({toEndMs:Int64}, 'UTC')
          AND 1
      )
      WHERE isNotNull(seg)
      GROUP BY key, segment
    )
  )
)
WHERE rank <= {limit:UInt32}

-- insightsSql
-- inputs: project 1, 2024-03-04 to 2024-04-02 in Europe/Berlin; Opened total; monthly; no merged id
-- parameters:
--   timeZone String = "Europe/Berlin"
--   p0 UInt32       = 1
--   event0 String   = "Opened"
--   fromMs Int64    = 1709506800000
--   toEndMs Int64   = 1712095200000
SELECT toUInt32(0) AS metric,
  key,
  '$overall' AS segment,
  toFloat64(count()) AS value,
  toUInt64(0) AS rank
FROM (
  SELECT (toInt64(toStartOfMonth(fromUnixTimestamp64Milli((toUnixTimestamp64Milli(time) + timeZoneOffset(fromUnixTimestamp64Milli(toUnixTimestamp64Milli(time), {timeZone:String})) * 1000), 'UTC'))) * 86400000) AS key,
    user_key AS user,
    0 AS v,
    0 AS isNumber,
    NULL AS seg
  FROM events FINAL
  WHERE project_id = {p0:UInt32}
    AND event = {event0:String}
    AND time >= fromUnixTimestamp64Milli({fromMs:Int64}, 'UTC')
    AND time < fromUnixTimestamp64Milli({toEndMs:Int64}, 'UTC')
    AND 1
)
GROUP BY key

-- insightsSql
-- inputs: project 1, 2024-03-04 to 2024-04-02; Paid unique; daily; on user["plan"] (the profiles joined); merged ids
-- parameters:
--   m0s_0 String  = "plan"
--   p0 UInt32     = 1
--   event0 String = "Paid"
--   fromMs Int64  = 1709510400000
--   toEndMs Int64 = 1712102400000
--   limit UInt32  = 10
SELECT toUInt32(0) AS metric,
  key,
  '$overall' AS segment,
  toFloat64(uniqExact(user)) AS value,
  toUInt64(0) AS rank
FROM (
  SELECT (intDiv(toUnixTimestamp64Milli(time), 86400000) * 86400000) AS key,
    distinct_id AS user,
    0 AS v,
    0 AS isNumber,
    (if(((startsWith((JSONExtractRaw(user_properties, {m0s_0:String}) AS m0s_v1), '"') AS m0s_v0) OR (match(m0s_v1, '^-?[0-9]') AS m0s_v2) OR ((m0s_v1 IN ('true', 'false')) AS m0s_v3) OR (m0s_v1 = 'null')), multiIf(m0s_v0, JSONExtractString(m0s_v1), m0s_v2, replaceRegexpOne(toString(toFloat64OrZero(m0s_v1) + 0), 'e([0-9])', 'e+\\1'), m0s_v3, if((m0s_v1 = 'true'), 'true', 'false'), 'null'), NULL)) AS seg
  FROM (
    SELECT ev.*,
      p.properties AS user_properties
    FROM (
      SELECT *
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
    ) AS ev
    LEFT ANY JOIN (
      SELECT profile_id,
        properties
      FROM profiles FINAL
      WHERE project_id = {p0:UInt32}
        AND group_key = ''
        AND profile_id IN (
          SELECT DISTINCT distinct_id
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
            AND event = {event0:String}
            AND time >= fromUnixTimestamp64Milli({fromMs:Int64}, 'UTC')
            AND time < fromUnixTimestamp64Milli({toEndMs:Int64}, 'UTC')
        )
    ) AS p ON p.profile_id = ev.distinct_id
  )
  WHERE project_id = {p0:UInt32}
    AND event = {event0:String}
    AND time >= fromUnixTimestamp64Milli({fromMs:Int64}, 'UTC')
    AND time < fromUnixTimestamp64Milli({toEndMs:Int64}, 'UTC')
    AND 1
)
GROUP BY key
UNION ALL
SELECT metric,
  key,
  segment,
  value,
  rank
FROM (
  SELECT *,
    dense_rank() OVER (ORDER BY total DESC, segment ASC) AS rank
  FROM (
    SELECT *,
      sum(events) OVER (PARTITION BY segment) AS total
    FROM (
      SELECT toUInt32(0) AS metric,
        key,
        assumeNotNull(seg) AS segment,
        toFloat64(uniqExact(user)) AS value,
        count() AS events
      FROM (
        SELECT (intDiv(toUnixTimestamp64Milli(time), 86400000) * 86400000) AS key,
          distinct_id AS user,
          0 AS v,
          0 AS isNumber,
          (if(((startsWith((JSONExtractRaw(user_properties, {m0s_0:String}) AS m0s_v1), '"') AS m0s_v0) OR (match(m0s_v1, '^-?[0-9]') AS m0s_v2) OR ((m0s_v1 IN ('true', 'false')) AS m0s_v3) OR (m0s_v1 = 'null')), multiIf(m0s_v0, JSONExtractString(m0s_v1), m0s_v2, replaceRegexpOne(toString(toFloat64OrZero(m0s_v1) + 0), 'e([0-9])', 'e+\\1'), m0s_v3, if((m0s_v1 = 'true'), 'true', 'false'), 'null'), NULL)) AS seg
        FROM (
          SELECT ev.*,
            p.properties AS user_properties
          FROM (
            SELECT *
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
          ) AS ev
          LEFT ANY JOIN (
            SELECT profile_id,
              properties
            FROM profiles FINAL
            WHERE project_id = {p0:UInt32}
              AND group_key = ''
              AND profile_id IN (
                SELECT DISTINCT distinct_id
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
                  AND event = {event0:String}
                  AND time >= fromUnixTimestamp64Milli({fromMs:Int64}, 'UTC')
                  AND time < fromUnixTimestamp64Milli({toEndMs:Int64}, 'UTC')
              )
          ) AS p ON p.profile_id = ev.distinct_id
        )
        WHERE project_id = {p0:UInt32}
          AND event = {event0:String}
          AND time >= fromUnixTimestamp64Milli({fromMs:Int64}, 'UTC')
          AND time < fromUnixTimestamp64Milli({toEndMs:Int64}, 'UTC')
          AND 1
      )
      WHERE isNotNull(seg)
      GROUP BY key, segment
    )
  )
)
WHERE rank <= {limit:UInt32}

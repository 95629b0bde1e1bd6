-- Rendered by `npm run sql:render` from libs/query/src/segmentation/segmentation-sql.ts; do not edit (test/rendered-sql/rendered-sql-files.ts lists the builders).

-- segmentationSql
-- inputs: project 1, 2024-03-04 to 2024-04-02; Opened, Paid; general; daily; limit 60; merged ids
-- parameters:
--   p0 UInt32            = 1
--   events Array(String) = ["Opened","Paid"]
--   fromMs Int64         = 1709510400000
--   toEndMs Int64        = 1712102400000
--   limit UInt32         = 60
SELECT key,
  series,
  events,
  users,
  rank
FROM (
  SELECT *,
    dense_rank() OVER (ORDER BY total DESC, series ASC) AS rank
  FROM (
    SELECT *,
      sum(events) OVER (PARTITION BY series) AS total
    FROM (
      SELECT (intDiv(toUnixTimestamp64Milli(time), 86400000) * 86400000) AS key,
        assumeNotNull(event) AS series,
        count() AS events,
        uniqExact(distinct_id) AS users
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
        AND isNotNull(event)
      GROUP BY key, series
    )
  )
)
WHERE rank <= {limit:UInt32}

-- segmentationSql
-- inputs: project 1, 2024-03-04 to 2024-04-02; Opened; unique; hourly; where plan = "pro"; on $browser, limit 60; no merged id
-- parameters:
--   on_0 String          = "$browser"
--   p0 UInt32            = 1
--   events Array(String) = ["Opened"]
--   fromMs Int64         = 1709510400000
--   toEndMs Int64        = 1712102400000
--   w_0 String           = "plan"
--   w_1 String           = "pro"
--   limit UInt32         = 60
SELECT key,
  series,
  events,
  users,
  rank
FROM (
  SELECT *,
    dense_rank() OVER (ORDER BY total DESC, series ASC) AS rank
  FROM (
    SELECT *,
      sum(events) OVER (PARTITION BY series) AS total
    FROM (
      SELECT (intDiv(toUnixTimestamp64Milli(time), 3600000) * 3600000) AS key,
        assumeNotNull((if(((startsWith((JSONExtractRaw(properties, {on_0:String}) AS on_v1), '"') AS on_v0) OR (match(on_v1, '^-?[0-9]') AS on_v2) OR ((on_v1 IN ('true', 'false')) AS on_v3) OR (on_v1 = 'null')), multiIf(on_v0, JSONExtractString(on_v1), on_v2, replaceRegexpOne(toString(toFloat64OrZero(on_v1) + 0), 'e([0-9])', 'e+\\1'), on_v3, if((on_v1 = 'true'), 'true', 'false'), 'null'), NULL))) AS series,
        count() AS events,
        uniqExact(distinct_id) AS users
      FROM events FINAL
      WHERE project_id = {p0:UInt32}
        AND event IN {events:Array(String)}
        AND time >= fromUnixTimestamp64Milli({fromMs:Int64}, 'UTC')
        AND time < fromUnixTimestamp64Milli({toEndMs:Int64}, 'UTC')
        AND ((startsWith((JSONExtractRaw(properties, {w_0:String}) AS w_v0), '"') AND (JSONExtractString(w_v0) = {w_1:String})))
        AND isNotNull((if(((startsWith((JSONExtractRaw(properties, {on_0:String}) AS on_v1), '"') AS on_v0) OR (match(on_v1, '^-?[0-9]') AS on_v2) OR ((on_v1 IN ('true', 'false')) AS on_v3) OR (on_v1 = 'null')), multiIf(on_v0, JSONExtractString(on_v1), on_v2, replaceRegexpOne(toString(toFloat64OrZero(on_v1) + 0), 'e([0-9])', 'e+\\1'), on_v3, if((on_v1 = 'true'), 'true', 'false'), 'null'), NULL)))
      GROUP BY key, series
    )
  )
)
WHERE rank <= {limit:UInt32}

-- segmentationSql
-- inputs: project 1, 2024-03-04 to 2024-04-02 in Europe/Berlin; Opened; general; hourly; limit 60; no merged id
-- parameters:
--   timeZone String      = "Europe/Berlin"
--   p0 UInt32            = 1
--   events Array(String) = ["Opened"]
--   fromMs Int64         = 1709506800000
--   toEndMs Int64        = 1712095200000
--   limit UInt32         = 60
SELECT key,
  series,
  events,
  users,
  rank
FROM (
  SELECT *,
    dense_rank() OVER (ORDER BY total DESC, series ASC) AS rank
  FROM (
    SELECT *,
      sum(events) OVER (PARTITION BY series) AS total
    FROM (
      SELECT (intDiv((toUnixTimestamp64Milli(time) + timeZoneOffset(fromUnixTimestamp64Milli(toUnixTimestamp64Milli(time), {timeZone:String})) * 1000), 3600000) * 3600000) AS key,
        assumeNotNull(event) AS series,
        count() AS events,
        uniqExact(distinct_id) AS users
      FROM events FINAL
      WHERE project_id = {p0:UInt32}
        AND event IN {events:Array(String)}
        AND time >= fromUnixTimestamp64Milli({fromMs:Int64}, 'UTC')
        AND time < fromUnixTimestamp64Milli({toEndMs:Int64}, 'UTC')
        AND 1
        AND isNotNull(event)
      GROUP BY key, series
    )
  )
)
WHERE rank <= {limit:UInt32}

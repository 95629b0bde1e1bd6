-- Rendered by `npm run sql:render` from libs/query/src/retention/addiction.ts; do not edit (test/rendered-sql/rendered-sql-files.ts lists the builders).

-- addictionSql
-- inputs: project 1, 2024-03-04 to 2024-04-02; Opened; weekly periods counted in days; merged ids
-- parameters:
--   p0 UInt32     = 1
--   event String  = "Opened"
--   fromMs Int64  = 1709510400000
--   toEndMs Int64 = 1712102400000
SELECT period,
  units,
  count() AS users
FROM (
  SELECT distinct_id,
    (intDiv(t, 86400000) - (intDiv(t, 86400000) + 3) % 7) AS period,
    uniqExact(intDiv(t, 86400000)) AS units
  FROM (
    SELECT distinct_id,
      toUnixTimestamp64Milli(time) AS t
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
      AND event = {event:String}
      AND time >= fromUnixTimestamp64Milli({fromMs:Int64}, 'UTC')
      AND time < fromUnixTimestamp64Milli({toEndMs:Int64}, 'UTC')
      AND 1
  )
  GROUP BY distinct_id, period
)
GROUP BY period, units

-- addictionSql
-- inputs: project 1, 2024-03-04 to 2024-04-02 in Europe/Berlin; Opened; daily periods counted in hours; no merged id
-- parameters:
--   bucketFromDay Int64 = 19786
--   bucketDays Int64    = 1
--   timeZone String     = "Europe/Berlin"
--   p0 UInt32           = 1
--   event String        = "Opened"
--   fromMs Int64        = 1709506800000
--   toEndMs Int64       = 1712095200000
SELECT period,
  units,
  count() AS users
FROM (
  SELECT distinct_id,
    ({bucketFromDay:Int64} + intDiv(intDiv(t, 86400000) - {bucketFromDay:Int64}, {bucketDays:Int64}) * {bucketDays:Int64}) AS period,
    uniqExact(intDiv(t, 3600000)) AS units
  FROM (
    SELECT distinct_id,
      (toUnixTimestamp64Milli(time) + timeZoneOffset(fromUnixTimestamp64Milli(toUnixTimestamp64Milli(time), {timeZone:String})) * 1000) AS t
    FROM events FINAL
    WHERE project_id = {p0:UInt32}
      AND event = {event:String}
      AND time >= fromUnixTimestamp64Milli({fromMs:Int64}, 'UTC')
      AND time < fromUnixTimestamp64Milli({toEndMs:Int64}, 'UTC')
      AND 1
  )
  GROUP BY distinct_id, period
)
GROUP BY period, units

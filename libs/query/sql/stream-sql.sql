-- Rendered by `npm run sql:render` from libs/query/src/stream/stream-sql.ts; do not edit (test/rendered-sql/rendered-sql-files.ts lists the builders).

-- streamSql
-- inputs: project 1, 2024-03-04 to 2024-04-02; user-1 and its device; the first page of 101
-- parameters:
--   members Array(String)   = ["$device:d1","user-1"]
--   canonical Array(String) = ["user-1","user-1"]
--   p0 UInt32               = 1
--   fromMs Int64            = 1709510400000
--   toEndMs Int64           = 1712102400000
--   limit UInt32            = 101
SELECT concat('{"event":', toJSONString(event), ',"properties":{"time":', toString(toUnixTimestamp(time)), ',"distinct_id":', toJSONString(distinct_id), if(original_distinct_id = distinct_id, '', concat(',"$distinct_id_before_identity":', toJSONString(original_distinct_id))), ',"$insert_id":', toJSONString(insert_id), ',"mp_processing_time_ms":', toString(toUnixTimestamp64Milli(processed_at)), if(properties = '{}', '', concat(',', substring(properties, 2, length(properties) - 2))), '}}') AS line,
  toString(toUnixTimestamp64Milli(time)) AS time_ms,
  event,
  original_distinct_id AS sent_id,
  insert_id
FROM (
  SELECT event,
    time,
    transform(sent, {members:Array(String)}, {canonical:Array(String)}, sent) AS distinct_id,
    sent AS original_distinct_id,
    insert_id,
    properties,
    processed_at
  FROM (
    SELECT event,
      time,
      distinct_id AS sent,
      insert_id,
      properties,
      processed_at
    FROM events FINAL
    WHERE project_id = {p0:UInt32}
      AND distinct_id IN {members:Array(String)}
      AND time >= fromUnixTimestamp64Milli({fromMs:Int64}, 'UTC')
      AND time < fromUnixTimestamp64Milli({toEndMs:Int64}, 'UTC')
    ORDER BY time DESC, event DESC, distinct_id DESC, insert_id DESC
    LIMIT {limit:UInt32}
  )
)
ORDER BY time DESC, event DESC, original_distinct_id DESC, insert_id DESC

-- streamSql
-- inputs: project 1 keeping 30 days, 2024-03-04 to 2024-04-02; the page of 101 after a cursor
-- parameters:
--   members Array(String)   = ["$device:d1","user-1"]
--   canonical Array(String) = ["user-1","user-1"]
--   p0 UInt32               = 1
--   p1 UInt32               = 30
--   fromMs Int64            = 1709510400000
--   toEndMs Int64           = 1712102400000
--   p2 Int64                = 1710000000000
--   p3 String               = "Viewed page"
--   p4 String               = "$device:d1"
--   p5 String               = "e1"
--   limit UInt32            = 101
SELECT concat('{"event":', toJSONString(event), ',"properties":{"time":', toString(toUnixTimestamp(time)), ',"distinct_id":', toJSONString(distinct_id), if(original_distinct_id = distinct_id, '', concat(',"$distinct_id_before_identity":', toJSONString(original_distinct_id))), ',"$insert_id":', toJSONString(insert_id), ',"mp_processing_time_ms":', toString(toUnixTimestamp64Milli(processed_at)), if(properties = '{}', '', concat(',', substring(properties, 2, length(properties) - 2))), '}}') AS line,
  toString(toUnixTimestamp64Milli(time)) AS time_ms,
  event,
  original_distinct_id AS sent_id,
  insert_id
FROM (
  SELECT event,
    time,
    transform(sent, {members:Array(String)}, {canonical:Array(String)}, sent) AS distinct_id,
    sent AS original_distinct_id,
    insert_id,
    properties,
    processed_at
  FROM (
    SELECT event,
      time,
      distinct_id AS sent,
      insert_id,
      properties,
      processed_at
    FROM (
      SELECT project_id,
        event,
        time,
        distinct_id,
        insert_id,
        properties,
        processed_at,
        user_key
      FROM events FINAL
      WHERE project_id = {p0:UInt32}
        AND time >= subtractDays(now64(3, 'UTC'), {p1:UInt32})
    )
    WHERE project_id = {p0:UInt32}
      AND distinct_id IN {members:Array(String)}
      AND time >= fromUnixTimestamp64Milli({fromMs:Int64}, 'UTC')
      AND time < fromUnixTimestamp64Milli({toEndMs:Int64}, 'UTC')
      AND (time, event, distinct_id, insert_id) < (fromUnixTimestamp64Milli({p2:Int64}, 'UTC'), {p3:String}, {p4:String}, {p5:String})
    ORDER BY time DESC, event DESC, distinct_id DESC, insert_id DESC
    LIMIT {limit:UInt32}
  )
)
ORDER BY time DESC, event DESC, original_distinct_id DESC, insert_id DESC

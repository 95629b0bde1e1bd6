-- Rendered by `npm run sql:render` from libs/export/src/export-sql.ts; do not edit (test/rendered-sql/rendered-sql-files.ts lists the builders).

-- ExportRepository.buckets (exportBucketsSql)
-- inputs: project 1; 2024-03-01 to 2024-03-31; events Opened, Paid; where plan = "pro"; ids as stored
-- parameters:
--   p0 UInt32               = 1
--   p1 DateTime64(3, 'UTC') = "2024-03-01 00:00:00.000"
--   p2 DateTime64(3, 'UTC') = "2024-03-31 23:59:59.999"
--   p3 Array(String)        = ["Opened","Paid"]
--   w_0 String              = "plan"
--   w_1 String              = "pro"
SELECT event,
  toString(toDate(time)) AS day,
  count() AS rows,
  sum(length(properties)) AS bytes
FROM events FINAL
WHERE project_id = {p0:UInt32}
  AND time >= {p1:DateTime64(3, 'UTC')}
  AND time <= {p2:DateTime64(3, 'UTC')}
  AND event IN {p3:Array(String)}
  AND ((startsWith((JSONExtractRaw(properties, {w_0:String}) AS w_v0), '"') AND (JSONExtractString(w_v0) = {w_1:String})))
GROUP BY event, day
ORDER BY event, day

-- ExportRepository.page (exportPageSql)
-- inputs: project 1; the month above; a page of three (event, day) buckets; limit 1000; ids resolved
-- parameters:
--   p0 UInt32               = 1
--   p1 DateTime64(3, 'UTC') = "2024-03-01 00:00:00.000"
--   p2 DateTime64(3, 'UTC') = "2024-03-31 23:59:59.999"
--   p3 Array(String)        = ["Opened","Paid"]
--   w_0 String              = "plan"
--   w_1 String              = "pro"
--   p4 String               = "Opened"
--   p5 Date                 = "2024-03-01"
--   p6 Date                 = "2024-03-02"
--   p7 String               = "Paid"
--   p8 Date                 = "2024-03-01"
--   p9 Date                 = "2024-03-01"
--   p10 UInt32              = 1000
SELECT concat('{"event":', toJSONString(event), ',"properties":{"time":', toString(toUnixTimestamp(time)), ',"distinct_id":', toJSONString(distinct_id), if(original_distinct_id = distinct_id, '', concat(',"$distinct_id_before_identity":', toJSONString(original_distinct_id))), ',"$insert_id":', toJSONString(insert_id), ',"mp_processing_time_ms":', toString(toUnixTimestamp64Milli(processed_at)), if(properties = '{}', '', concat(',', substring(properties, 2, length(properties) - 2))), '}}')
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
  AND time >= {p1:DateTime64(3, 'UTC')}
  AND time <= {p2:DateTime64(3, 'UTC')}
  AND event IN {p3:Array(String)}
  AND ((startsWith((JSONExtractRaw(properties, {w_0:String}) AS w_v0), '"') AND (JSONExtractString(w_v0) = {w_1:String})))
  AND ((event = {p4:String} AND toDate(time) BETWEEN {p5:Date} AND {p6:Date}) OR (event = {p7:String} AND toDate(time) BETWEEN {p8:Date} AND {p9:Date}))
LIMIT {p10:UInt32}

-- ExportRepository.page (exportPageSql)
-- inputs: project 1; the month, all events, time in ms; share 2 of 4 of one big bucket; no limit; ids as stored
-- parameters:
--   p0 UInt32               = 1
--   p1 DateTime64(3, 'UTC') = "2024-03-01 00:00:00.000"
--   p2 DateTime64(3, 'UTC') = "2024-03-31 23:59:59.999"
--   p3 String               = "Opened"
--   p4 Date                 = "2024-03-01"
--   p5 Date                 = "2024-03-01"
--   p6 UInt32               = 4
--   p7 UInt32               = 2
SELECT concat('{"event":', toJSONString(event), ',"properties":{"time":', toString(toUnixTimestamp64Milli(time)), ',"distinct_id":', toJSONString(distinct_id), ',"$insert_id":', toJSONString(insert_id), ',"mp_processing_time_ms":', toString(toUnixTimestamp64Milli(processed_at)), if(properties = '{}', '', concat(',', substring(properties, 2, length(properties) - 2))), '}}')
FROM events FINAL
WHERE project_id = {p0:UInt32}
  AND time >= {p1:DateTime64(3, 'UTC')}
  AND time <= {p2:DateTime64(3, 'UTC')}
  AND ((event = {p3:String} AND toDate(time) BETWEEN {p4:Date} AND {p5:Date}))
  AND cityHash64(distinct_id) % {p6:UInt32} = {p7:UInt32}

-- Rendered by `npm run sql:render` from libs/pipelines/src/pipeline-export-sql.ts; do not edit (test/rendered-sql/rendered-sql-files.ts lists the builders).

-- PipelineExportRepository.eventNames (windowEventNamesSql)
-- inputs: project 1; the hour 2024-03-04 10:00 UTC
-- parameters:
--   p0 UInt32               = 1
--   p1 DateTime64(3, 'UTC') = "2024-03-04 10:00:00.000"
--   p2 DateTime64(3, 'UTC') = "2024-03-04 11:00:00.000"
SELECT DISTINCT toString(event) AS event
FROM events
WHERE project_id = {p0:UInt32}
  AND time >= {p1:DateTime64(3, 'UTC')}
  AND time < {p2:DateTime64(3, 'UTC')}
ORDER BY event

-- PipelineExportRepository.fingerprints (windowFingerprintsSql)
-- inputs: project 1; hourly windows of 2024-03-04
-- parameters:
--   p0 UInt32               = 3600
--   p1 UInt32               = 1
--   p2 DateTime64(3, 'UTC') = "2024-03-04 00:00:00.000"
--   p3 DateTime64(3, 'UTC') = "2024-03-05 00:00:00.000"
SELECT toUnixTimestamp64Milli(toDateTime64(toStartOfInterval(time, toIntervalSecond({p0:UInt32})), 3, 'UTC')) AS start,
  count() AS rows,
  concat(toString(count()), '@', toString(toUnixTimestamp64Milli(max(processed_at)))) AS fingerprint
FROM events FINAL
WHERE project_id = {p1:UInt32}
  AND time >= {p2:DateTime64(3, 'UTC')}
  AND time < {p3:DateTime64(3, 'UTC')}
GROUP BY start
ORDER BY start

-- PipelineExportRepository.writeEvents (writeEventsSql)
-- inputs: project 1; the hour; Parquet, mp_master_event, every event; AWS with a key pair
-- parameters:
--   url String              = "https://exports.s3.eu-west-1.amazonaws.com/analytics/1/mp_master_event/2024/03/04/10/data.parquet"
--   accessKeyId String      = "AKIAEXAMPLE"
--   secretAccessKey String  = "secret"
--   p0 UInt32               = 1
--   p1 DateTime64(3, 'UTC') = "2024-03-04 10:00:00.000"
--   p2 DateTime64(3, 'UTC') = "2024-03-04 11:00:00.000"
INSERT INTO FUNCTION s3({url:String}, {accessKeyId:String}, {secretAccessKey:String}, 'Parquet')
SELECT toString(event) AS mp_event_name,
  time,
  distinct_id,
  insert_id,
  toUnixTimestamp64Milli(processed_at) AS mp_processing_time_ms,
  properties
FROM events FINAL
WHERE project_id = {p0:UInt32}
  AND time >= {p1:DateTime64(3, 'UTC')}
  AND time < {p2:DateTime64(3, 'UTC')}
ORDER BY time, insert_id
SETTINGS s3_truncate_on_insert = 1, s3_retry_attempts = 2, s3_connect_timeout_ms = 5000, output_format_parquet_compression_method = 'snappy'

-- PipelineExportRepository.writeEvents (writeEventsSql)
-- inputs: project 1; the hour; gzip json lines, table opened, events Opened; a self-hosted store, path style, no key pair
-- parameters:
--   url String              = "http://127.0.0.1:9000/exports/1/opened/2024/03/04/10/data.json.gz"
--   p0 UInt32               = 1
--   p1 DateTime64(3, 'UTC') = "2024-03-04 10:00:00.000"
--   p2 DateTime64(3, 'UTC') = "2024-03-04 11:00:00.000"
--   p3 Array(String)        = ["Opened"]
INSERT INTO FUNCTION s3({url:String}, 'TabSeparatedRaw', 'line String', 'gzip')
SELECT concat('{"event":', toJSONString(event), ',"properties":{"time":', toString(toUnixTimestamp(time)), ',"distinct_id":', toJSONString(distinct_id), ',"$insert_id":', toJSONString(insert_id), ',"mp_processing_time_ms":', toString(toUnixTimestamp64Milli(processed_at)), if(properties = '{}', '', concat(',', substring(properties, 2, length(properties) - 2))), '}}') AS line
FROM events FINAL
WHERE project_id = {p0:UInt32}
  AND time >= {p1:DateTime64(3, 'UTC')}
  AND time < {p2:DateTime64(3, 'UTC')}
  AND event IN {p3:Array(String)}
ORDER BY time, insert_id
SETTINGS s3_truncate_on_insert = 1, s3_retry_attempts = 2, s3_connect_timeout_ms = 5000, output_format_parquet_compression_method = 'snappy'

-- PipelineExportRepository.writePeople (writePeopleSql)
-- inputs: project 1; Parquet; AWS with a key pair
-- parameters:
--   url String             = "https://exports.s3.eu-west-1.amazonaws.com/analytics/1/mp_people_data/data.parquet"
--   accessKeyId String     = "AKIAEXAMPLE"
--   secretAccessKey String = "secret"
--   p0 UInt32              = 1
INSERT INTO FUNCTION s3({url:String}, {accessKeyId:String}, {secretAccessKey:String}, 'Parquet')
SELECT profile_id AS distinct_id,
  properties
FROM profiles FINAL
WHERE project_id = {p0:UInt32}
  AND group_key = ''
ORDER BY profile_id
SETTINGS s3_truncate_on_insert = 1, s3_retry_attempts = 2, s3_connect_timeout_ms = 5000, output_format_parquet_compression_method = 'snappy'

-- PipelineExportRepository.writePeople (peopleCountSql)
-- inputs: project 1
-- parameters:
--   p0 UInt32 = 1
SELECT count() AS rows
FROM profiles FINAL
WHERE project_id = {p0:UInt32}
  AND group_key = ''

-- PipelineExportRepository.writeText (writeTextSql)
-- inputs: a manifest; AWS with a key pair
-- parameters:
--   url String             = "https://exports.s3.eu-west-1.amazonaws.com/analytics/1/manifest.json"
--   accessKeyId String     = "AKIAEXAMPLE"
--   secretAccessKey String = "secret"
--   p0 String              = "{\"objects\":[]}"
INSERT INTO FUNCTION s3({url:String}, {accessKeyId:String}, {secretAccessKey:String}, 'RawBLOB', 'data String')
SELECT {p0:String}
SETTINGS s3_truncate_on_insert = 1, s3_retry_attempts = 2, s3_connect_timeout_ms = 5000, output_format_parquet_compression_method = 'snappy'

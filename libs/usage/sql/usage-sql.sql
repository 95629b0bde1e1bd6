-- Rendered by `npm run sql:render` from libs/usage/src/usage-sql.ts; do not edit (test/rendered-sql/rendered-sql-files.ts lists the builders).

-- UsageRepository.events (eventsUsageSql)
-- inputs: project 1; per_day from 2026-01-01 to 2026-03-31
-- parameters:
--   p0 Date   = "2026-01-01"
--   p1 Date   = "2026-03-31"
--   p2 UInt32 = 1
SELECT sum(events) AS total,
  minOrNull(first) AS oldest,
  maxOrNull(last) AS newest,
  arraySort(groupArrayIf((toString(day), events), day BETWEEN {p0:Date} AND {p1:Date})) AS per_day
FROM (
  SELECT toDate(time) AS day,
    count() AS events,
    min(time) AS first,
    max(time) AS last
  FROM events FINAL
  WHERE project_id = {p2:UInt32}
  GROUP BY day
)

-- UsageRepository.bytesOnDisk (eventsDiskShareSql)
-- inputs: project 1; one server
-- parameters:
--   p0 String = "events"
--   p1 UInt32 = 1
SELECT (
  SELECT sum(bytes_on_disk)
  FROM system.parts
  WHERE database = currentDatabase()
    AND table = {p0:String}
    AND active
) AS table_bytes,
  (
    SELECT count()
    FROM events
  ) AS table_rows,
  (
    SELECT count()
    FROM events
    WHERE project_id = {p1:UInt32}
  ) AS project_rows

-- UsageRepository.bytesOnDisk (eventsDiskShareSql)
-- inputs: project 1; the cluster analytics (one replica of each shard)
-- parameters:
--   p0 String = "events_local"
--   p1 UInt32 = 1
SELECT (
  SELECT sum(bytes_on_disk)
  FROM cluster(analytics, system.parts)
  WHERE database = currentDatabase()
    AND table = {p0:String}
    AND active
) AS table_bytes,
  (
    SELECT count()
    FROM events
  ) AS table_rows,
  (
    SELECT count()
    FROM events
    WHERE project_id = {p1:UInt32}
  ) AS project_rows

-- UsageRepository.storedEventsByProject (storedEventsByProjectSql)
-- inputs: every project (the gauges)
-- parameters: none
SELECT project_id,
  count() AS events,
  min(time) AS oldest
FROM events
GROUP BY project_id

-- UsageRepository.eventsTableBytes (eventsTableBytesSql)
-- inputs: one server
-- parameters:
--   p0 String = "events"
SELECT (
  SELECT sum(bytes_on_disk)
  FROM system.parts
  WHERE database = currentDatabase()
    AND table = {p0:String}
    AND active
) AS table_bytes

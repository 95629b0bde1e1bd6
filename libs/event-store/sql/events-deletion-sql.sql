-- Rendered by `npm run sql:render` from libs/event-store/src/events-deletion-sql.ts; do not edit (test/rendered-sql/rendered-sql-files.ts lists the builders).

-- EventsDeletionRepository.delete (deleteEventsSql of erasedEventsSql)
-- inputs: project 1; ids device-1, user@example.com; ingested before 2024-04-01 12:00 UTC; one server
-- parameters:
--   p0 UInt32               = 1
--   p1 Array(String)        = ["device-1","user@example.com"]
--   p2 DateTime64(3, 'UTC') = "2024-04-01 12:00:00.000"
DELETE FROM events
WHERE project_id = {p0:UInt32}
  AND distinct_id IN {p1:Array(String)}
  AND processed_at < {p2:DateTime64(3, 'UTC')}

-- EventsDeletionRepository.delete (deleteEventsSql of erasedEventsSql)
-- inputs: project 1; ids device-1, user@example.com; ingested before 2024-04-01 12:00 UTC; cluster main
-- parameters:
--   p0 UInt32               = 1
--   p1 Array(String)        = ["device-1","user@example.com"]
--   p2 DateTime64(3, 'UTC') = "2024-04-01 12:00:00.000"
DELETE FROM events_local ON CLUSTER main
WHERE project_id = {p0:UInt32}
  AND distinct_id IN {p1:Array(String)}
  AND processed_at < {p2:DateTime64(3, 'UTC')}

-- EventsDeletionRepository.count (countEventsSql of erasedEventsSql)
-- inputs: project 1; ids device-1, user@example.com; ingested before 2024-04-01 12:00 UTC
-- parameters:
--   p0 UInt32               = 1
--   p1 Array(String)        = ["device-1","user@example.com"]
--   p2 DateTime64(3, 'UTC') = "2024-04-01 12:00:00.000"
SELECT count() AS n
FROM events
WHERE project_id = {p0:UInt32}
  AND distinct_id IN {p1:Array(String)}
  AND processed_at < {p2:DateTime64(3, 'UTC')}

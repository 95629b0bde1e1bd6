-- Rendered by `npm run sql:render` from libs/management/src/project-events.repository.ts; do not edit (test/rendered-sql/rendered-sql-files.ts lists the builders).

-- ProjectEventsRepository.hasEvents (projectHasEventsSql)
-- inputs: project 1
-- parameters:
--   p0 UInt32 = 1
SELECT 1 AS found
FROM events
WHERE project_id = {p0:UInt32}
LIMIT 1

-- ProjectEventsRepository.knowsTimeZone (knownTimeZoneSql)
-- inputs: Europe/Berlin
-- parameters:
--   timeZone String = "Europe/Berlin"
SELECT 1 AS found
FROM system.time_zones
WHERE time_zone = {timeZone:String}
LIMIT 1

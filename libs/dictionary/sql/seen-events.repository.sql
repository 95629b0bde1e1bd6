-- Rendered by `npm run sql:render` from libs/dictionary/src/seen-events.repository.ts; do not edit (test/rendered-sql/rendered-sql-files.ts lists the builders).

-- SeenEventsRepository.since (seenEventsSql)
-- inputs: project 1; since 2024-03-04
-- parameters:
--   p0 UInt32 = 1
--   p1 Int64  = 1709510400000
--   p2 UInt32 = 2000
SELECT event AS name,
  count() AS count,
  arraySort(groupUniqArrayArray(500)(JSONExtractKeys(properties))) AS properties
FROM events
WHERE project_id = {p0:UInt32}
  AND time >= fromUnixTimestamp64Milli({p1:Int64})
GROUP BY event
ORDER BY count DESC, name
LIMIT {p2:UInt32}

-- Rendered by `npm run sql:render` from libs/event-store/src/events-retention-sql.ts; do not edit (test/rendered-sql/rendered-sql-files.ts lists the builders).

-- EventsRetentionRepository.expiredMonths (expiredMonthsSql)
-- inputs: project 1 before 2026-01-15, project 2 before 2026-02-01
-- parameters:
--   p0 Array(UInt32) = [1,2]
--   p1 Array(Int64)  = [1768435200000,1769904000000]
--   p2 Array(UInt32) = [1,2]
SELECT DISTINCT project_id,
  toYYYYMM(time) AS month
FROM events
WHERE project_id IN {p0:Array(UInt32)}
  AND toUnixTimestamp64Milli(time) < arrayElement({p1:Array(Int64)}, indexOf({p2:Array(UInt32)}, project_id))
ORDER BY month, project_id

-- EventsRetentionRepository.deleteExpired (deleteExpiredSql)
-- inputs: January 2026; project 1 before 2026-01-15; cluster main
-- parameters:
--   p0 Array(UInt32) = [1]
--   p1 Array(Int64)  = [1768435200000]
--   p2 Array(UInt32) = [1]
ALTER TABLE events_local ON CLUSTER main DELETE IN PARTITION 202601
WHERE project_id IN {p0:Array(UInt32)}
  AND toUnixTimestamp64Milli(time) < arrayElement({p1:Array(Int64)}, indexOf({p2:Array(UInt32)}, project_id))

-- EventsRetentionRepository.deleteExpired (deleteExpiredSql)
-- inputs: January 2026; project 1 before 2026-01-15, project 2 before 2026-02-01; one server
-- parameters:
--   p0 Array(UInt32) = [1,2]
--   p1 Array(Int64)  = [1768435200000,1769904000000]
--   p2 Array(UInt32) = [1,2]
ALTER TABLE events DELETE IN PARTITION 202601
WHERE project_id IN {p0:Array(UInt32)}
  AND toUnixTimestamp64Milli(time) < arrayElement({p1:Array(Int64)}, indexOf({p2:Array(UInt32)}, project_id))

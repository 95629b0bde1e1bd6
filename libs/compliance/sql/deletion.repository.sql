-- Rendered by `npm run sql:render` from libs/compliance/src/deletion-sql.ts; do not edit (test/rendered-sql/rendered-sql-files.ts lists the builders).

-- DeletionRepository.delete (deleteRowsSql, profiles)
-- inputs: project 1; ids device-1, user@example.com; ingested before 2024-04-01 12:00 UTC; one server
-- parameters:
--   p0 UInt32        = 1
--   p1 Array(String) = ["device-1","user@example.com"]
DELETE FROM profiles
WHERE project_id = {p0:UInt32}
  AND profile_id IN {p1:Array(String)}
  AND group_key = ''

-- DeletionRepository.delete (deleteRowsSql, identity_map)
-- inputs: project 1; ids device-1, user@example.com; ingested before 2024-04-01 12:00 UTC; one server
-- parameters:
--   p0 UInt32        = 1
--   p1 Array(String) = ["device-1","user@example.com"]
DELETE FROM identity_map
WHERE project_id = {p0:UInt32}
  AND distinct_id IN {p1:Array(String)}

-- DeletionRepository.delete (deleteRowsSql, profiles)
-- inputs: project 1; ids device-1, user@example.com; ingested before 2024-04-01 12:00 UTC; cluster main
-- parameters:
--   p0 UInt32        = 1
--   p1 Array(String) = ["device-1","user@example.com"]
DELETE FROM profiles_local ON CLUSTER main
WHERE project_id = {p0:UInt32}
  AND profile_id IN {p1:Array(String)}
  AND group_key = ''

-- DeletionRepository.remaining (remainingRowsSql, profiles)
-- inputs: project 1; ids device-1, user@example.com; ingested before 2024-04-01 12:00 UTC
-- parameters:
--   p0 UInt32        = 1
--   p1 Array(String) = ["device-1","user@example.com"]
SELECT count() AS n
FROM profiles
WHERE project_id = {p0:UInt32}
  AND profile_id IN {p1:Array(String)}
  AND group_key = ''

-- DeletionRepository.remaining (remainingRowsSql, identity_map)
-- inputs: project 1; ids device-1, user@example.com; ingested before 2024-04-01 12:00 UTC
-- parameters:
--   p0 UInt32        = 1
--   p1 Array(String) = ["device-1","user@example.com"]
SELECT count() AS n
FROM identity_map
WHERE project_id = {p0:UInt32}
  AND distinct_id IN {p1:Array(String)}

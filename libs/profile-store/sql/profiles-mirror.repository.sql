-- Rendered by `npm run sql:render` from libs/profile-store/src/profiles-mirror-sql.ts; do not edit (test/rendered-sql/rendered-sql-files.ts lists the builders).

-- ProfilesMirrorRepository.insert (PROFILES_MIRROR_INSERT)
-- inputs: the profiles as JSONEachRow lines in the body
-- parameters: none
INSERT INTO profiles
FORMAT JSONEachRow

-- ProfilesMirrorRepository.page (mirrorPageSql)
-- inputs: project 1; user profiles as of 2024-04-03; where plan = "pro"; rows 100 to 149
-- parameters:
--   p0 UInt32      = 1
--   p1 String      = ""
--   p2 Int64       = 1712102400000
--   where_0 String = "plan"
--   where_1 String = "pro"
--   p3 UInt32      = 50
--   p4 UInt64      = 100
SELECT profile_id,
  properties
FROM profiles FINAL
WHERE project_id = {p0:UInt32}
  AND group_key = {p1:String}
  AND created_at <= fromUnixTimestamp64Milli({p2:Int64}, 'UTC')
  AND ((startsWith((JSONExtractRaw(properties, {where_0:String}) AS where_v0), '"') AND (JSONExtractString(where_v0) = {where_1:String})))
ORDER BY profile_id
LIMIT {p3:UInt32} OFFSET {p4:UInt64}

-- ProfilesMirrorRepository.page (mirrorPageSql)
-- inputs: project 1; group company profiles as of 2024-04-03; ids acme, globex; first 50
-- parameters:
--   p0 UInt32        = 1
--   p1 String        = "company"
--   p2 Int64         = 1712102400000
--   p3 Array(String) = ["acme","globex"]
--   p4 UInt32        = 50
--   p5 UInt64        = 0
SELECT profile_id,
  properties
FROM profiles FINAL
WHERE project_id = {p0:UInt32}
  AND group_key = {p1:String}
  AND created_at <= fromUnixTimestamp64Milli({p2:Int64}, 'UTC')
  AND profile_id IN {p3:Array(String)}
ORDER BY profile_id
LIMIT {p4:UInt32} OFFSET {p5:UInt64}

-- ProfilesMirrorRepository.page (mirrorPageSql)
-- inputs: project 1; a cohort's members with a profile; first 50
-- parameters:
--   p0 UInt32 = 1
--   p1 String = ""
--   p2 Int64  = 1712102400000
--   p3 String = "Purchased"
--   p4 UInt32 = 50
--   p5 UInt64 = 0
SELECT profile_id,
  properties
FROM profiles FINAL
WHERE project_id = {p0:UInt32}
  AND group_key = {p1:String}
  AND created_at <= fromUnixTimestamp64Milli({p2:Int64}, 'UTC')
  AND profile_id IN (
    SELECT distinct_id
    FROM events
    WHERE project_id = {p0:UInt32}
      AND event = {p3:String}
    GROUP BY distinct_id
  )
ORDER BY profile_id
LIMIT {p4:UInt32} OFFSET {p5:UInt64}

-- ProfilesMirrorRepository.page (mirrorPageSql)
-- inputs: project 1; every member of a cohort, with a profile or not; where plan = "pro"; first 50
-- parameters:
--   p0 UInt32      = 1
--   p1 String      = "Purchased"
--   p2 String      = ""
--   p3 Int64       = 1712102400000
--   p4 String      = "Purchased"
--   where_0 String = "plan"
--   where_1 String = "pro"
--   p5 UInt32      = 50
--   p6 UInt64      = 0
SELECT profile_id,
  properties
FROM (
  SELECT member.distinct_id AS profile_id,
    if(profile.found = 1, profile.properties_json, '{}') AS properties
  FROM (
    SELECT distinct_id
    FROM events
    WHERE project_id = {p0:UInt32}
      AND event = {p1:String}
    GROUP BY distinct_id
  ) AS member
  LEFT JOIN (
    SELECT profile_id AS id,
      properties AS properties_json,
      1 AS found
    FROM profiles FINAL
    WHERE project_id = {p0:UInt32}
      AND group_key = {p2:String}
      AND created_at <= fromUnixTimestamp64Milli({p3:Int64}, 'UTC')
      AND profile_id IN (
        SELECT distinct_id
        FROM events
        WHERE project_id = {p0:UInt32}
          AND event = {p4:String}
        GROUP BY distinct_id
      )
  ) AS profile ON profile.id = member.distinct_id
)
WHERE 1
  AND ((startsWith((JSONExtractRaw(properties, {where_0:String}) AS where_v0), '"') AND (JSONExtractString(where_v0) = {where_1:String})))
ORDER BY profile_id
LIMIT {p5:UInt32} OFFSET {p6:UInt64}

-- ProfilesMirrorRepository.count (mirrorCountSql)
-- inputs: project 1; user profiles as of 2024-04-03; where plan = "pro"
-- parameters:
--   p0 UInt32      = 1
--   p1 String      = ""
--   p2 Int64       = 1712102400000
--   where_0 String = "plan"
--   where_1 String = "pro"
SELECT count() AS total
FROM profiles FINAL
WHERE project_id = {p0:UInt32}
  AND group_key = {p1:String}
  AND created_at <= fromUnixTimestamp64Milli({p2:Int64}, 'UTC')
  AND ((startsWith((JSONExtractRaw(properties, {where_0:String}) AS where_v0), '"') AND (JSONExtractString(where_v0) = {where_1:String})))

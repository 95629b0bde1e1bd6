-- Rendered by `npm run sql:render` from libs/query/src/cohorts/cohort-members-sql.ts; do not edit (test/rendered-sql/rendered-sql-files.ts lists the builders).

-- cohortMembersSql
-- inputs: project 1; Purchased where amount > 10 at least twice in the last 30 days, at 2024-04-03; merged ids
-- parameters:
--   p0 UInt32         = 1
--   p1 String         = "Purchased"
--   p2 Int64          = 1709596800000
--   p3 Int64          = 1712102400000
--   cohortw_0 String  = "amount"
--   cohortw_1 Float64 = "10"
--   p4 UInt64         = 2
SELECT distinct_id
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
  AND event = {p1:String}
  AND time >= fromUnixTimestamp64Milli({p2:Int64}, 'UTC')
  AND time <= fromUnixTimestamp64Milli({p3:Int64}, 'UTC')
  AND ((match((JSONExtractRaw(properties, {cohortw_0:String}) AS cohortw_v0), '^-?[0-9]') AND (toFloat64OrZero(cohortw_v0) > {cohortw_1:Float64})))
GROUP BY distinct_id
HAVING count() >= {p4:UInt64}

-- cohortMembersSql
-- inputs: project 1; profiles where plan = "pro", at 2024-04-03
-- parameters:
--   p0 UInt32        = 1
--   p1 Int64         = 1712102400000
--   cohortp_0 String = "plan"
--   cohortp_1 String = "pro"
SELECT profile_id AS distinct_id
FROM profiles FINAL
WHERE project_id = {p0:UInt32}
  AND group_key = ''
  AND is_deleted = 0
  AND created_at <= fromUnixTimestamp64Milli({p1:Int64}, 'UTC')
  AND ((startsWith((JSONExtractRaw(properties, {cohortp_0:String}) AS cohortp_v0), '"') AND (JSONExtractString(cohortp_v0) = {cohortp_1:String})))

-- cohortCountSql
-- inputs: project 1; the behaviour cohort above; no merged id
-- parameters:
--   p0 UInt32         = 1
--   p1 String         = "Purchased"
--   p2 Int64          = 1709596800000
--   p3 Int64          = 1712102400000
--   cohortw_0 String  = "amount"
--   cohortw_1 Float64 = "10"
--   p4 UInt64         = 2
SELECT count() AS members
FROM (
  SELECT distinct_id
  FROM events FINAL
  WHERE project_id = {p0:UInt32}
    AND event = {p1:String}
    AND time >= fromUnixTimestamp64Milli({p2:Int64}, 'UTC')
    AND time <= fromUnixTimestamp64Milli({p3:Int64}, 'UTC')
    AND ((match((JSONExtractRaw(properties, {cohortw_0:String}) AS cohortw_v0), '^-?[0-9]') AND (toFloat64OrZero(cohortw_v0) > {cohortw_1:Float64})))
  GROUP BY distinct_id
  HAVING count() >= {p4:UInt64}
)

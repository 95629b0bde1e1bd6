-- Rendered by `npm run sql:render` from libs/event-store/src/resolved-events-sql.ts; do not edit (test/rendered-sql/rendered-sql-files.ts lists the builders).

-- resolvedEventsSql
-- inputs: project 1; ids resolved through identity_map (the join); a FROM source
-- parameters:
--   p0 UInt32 = 1
(
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

-- resolvedUserKeysSql
-- inputs: project 1; person keys through identity_lookup; a FROM source
-- parameters:
--   p0 UInt32 = 1
(
  SELECT project_id,
    event,
    time,
    properties,
    insert_id,
    processed_at,
    distinct_id,
    bitXor(user_key, joinGet('identity_lookup', 'delta', toUInt64(user_key))) AS person_key
  FROM events FINAL
  WHERE project_id = {p0:UInt32}
)

-- mergedIdExistsSql
-- inputs: project 1
-- parameters:
--   p0 UInt32 = 1
SELECT 1 AS merged
FROM identity_map
WHERE project_id = {p0:UInt32}
  AND person_id != distinct_id
LIMIT 1

-- resolvedEventsSql
-- inputs: project 1, events kept 30 days; ids resolved through identity_map (the join); a FROM source
-- parameters:
--   p0 UInt32 = 1
--   p1 UInt32 = 30
(
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
    AND ev.time >= subtractDays(now64(3, 'UTC'), {p1:UInt32})
)

-- resolvedUserKeysSql
-- inputs: project 1, events kept 30 days; a FROM source
-- parameters:
--   p0 UInt32 = 1
--   p1 UInt32 = 30
(
  SELECT project_id,
    event,
    time,
    properties,
    insert_id,
    processed_at,
    distinct_id,
    bitXor(user_key, joinGet('identity_lookup', 'delta', toUInt64(user_key))) AS person_key
  FROM events FINAL
  WHERE project_id = {p0:UInt32}
    AND time >= subtractDays(now64(3, 'UTC'), {p1:UInt32})
)

-- storedEventsSql
-- inputs: project 1, events kept 30 days; deduplicated (FINAL); a FROM source (kept for ever: the table itself)
-- parameters:
--   p0 UInt32 = 1
--   p1 UInt32 = 30
(
  SELECT project_id,
    event,
    time,
    distinct_id,
    insert_id,
    properties,
    processed_at,
    user_key
  FROM events FINAL
  WHERE project_id = {p0:UInt32}
    AND time >= subtractDays(now64(3, 'UTC'), {p1:UInt32})
)

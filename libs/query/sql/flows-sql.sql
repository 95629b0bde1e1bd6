-- Rendered by `npm run sql:render` from libs/query/src/flows/flows-sql.ts; do not edit (test/rendered-sql/rendered-sql-files.ts lists the builders).

-- flowsSql
-- inputs: project 1, 2024-03-04 to 2024-04-02; 3 steps after Signed up; limit 10; merged ids, identity_lookup
-- parameters:
--   p0 UInt32 = 10
--   p1 UInt32 = 3
--   p2 String = "Signed up"
--   p3 String = "Signed up"
--   p4 UInt32 = 1
--   p5 Int64  = 1709510400000
--   p6 Int64  = 1712102400000
--   p7 Int64  = 1709510400000
--   p8 Int64  = 1712102400000
--   p9 String = "Signed up"
SELECT arraySlice(arraySort(x -> (-x.2, x.1), groupArray((path, c))), 1, {p0:UInt32}) AS top,
  sum(c) AS people,
  count() AS distinct_paths,
  sumForEach(arrayWithConstant(length(path), c)) AS reached
FROM (
  SELECT path,
    count() AS c
  FROM (
    SELECT arrayPushFront(arrayMap(x -> x.2, groupArraySortedIf({p1:UInt32})((e.t, e.event), (e.t, e.event) > (a.anchor_t, {p2:String}))), {p3:String}) AS path
    FROM (
      SELECT person_key AS user,
        toUnixTimestamp64Milli(time) AS t,
        event,
        1 AS passes
      FROM (
        SELECT project_id,
          event,
          time,
          properties,
          insert_id,
          processed_at,
          distinct_id,
          bitXor(user_key, joinGet('identity_lookup', 'delta', toUInt64(user_key))) AS person_key
        FROM events FINAL
        WHERE project_id = {p4:UInt32}
      )
      WHERE project_id = {p4:UInt32}
        AND time >= fromUnixTimestamp64Milli({p5:Int64}, 'UTC')
        AND time < fromUnixTimestamp64Milli({p6:Int64}, 'UTC')
    ) AS e
    INNER JOIN (
      SELECT user,
        min(t) AS anchor_t
      FROM (
        SELECT person_key AS user,
          toUnixTimestamp64Milli(time) AS t,
          event,
          1 AS passes
        FROM (
          SELECT project_id,
            event,
            time,
            properties,
            insert_id,
            processed_at,
            distinct_id,
            bitXor(user_key, joinGet('identity_lookup', 'delta', toUInt64(user_key))) AS person_key
          FROM events FINAL
          WHERE project_id = {p4:UInt32}
        )
        WHERE project_id = {p4:UInt32}
          AND time >= fromUnixTimestamp64Milli({p7:Int64}, 'UTC')
          AND time < fromUnixTimestamp64Milli({p8:Int64}, 'UTC')
      )
      WHERE event = {p9:String}
        AND passes
      GROUP BY user
    ) AS a ON e.user = a.user
    WHERE e.t >= a.anchor_t
    GROUP BY e.user
  )
  GROUP BY path
)
SETTINGS max_memory_usage = 2147483648

-- flowsSql
-- inputs: project 1, 2024-03-04 to 2024-04-02; 2 steps before Purchased where plan == "pro"; limit 5; merged ids on a cluster (the identity_map join)
-- parameters:
--   p0 UInt32  = 5
--   p1 String  = "Purchased"
--   p2 UInt32  = 2
--   p3 String  = "Purchased"
--   w_0 String = "plan"
--   w_1 String = "pro"
--   p4 UInt32  = 1
--   p5 Int64   = 1709510400000
--   p6 Int64   = 1712102400000
--   p7 Int64   = 1709510400000
--   p8 Int64   = 1712102400000
--   p9 String  = "Purchased"
SELECT arraySlice(arraySort(x -> (-x.2, x.1), groupArray((path, c))), 1, {p0:UInt32}) AS top,
  sum(c) AS people,
  count() AS distinct_paths,
  sumForEach(arrayWithConstant(length(path), c)) AS reached
FROM (
  SELECT path,
    count() AS c
  FROM (
    SELECT arrayPushBack(arrayMap(x -> x.2, arraySlice(arraySort(groupArrayIf((e.t, e.event), (e.t, e.event) < (a.anchor_t, {p1:String}))) AS xb, greatest(1, length(xb) - {p2:UInt32} + 1))), {p3:String}) AS path
    FROM (
      SELECT distinct_id AS user,
        toUnixTimestamp64Milli(time) AS t,
        event,
        ((startsWith((JSONExtractRaw(properties, {w_0:String}) AS w_v0), '"') AND (JSONExtractString(w_v0) = {w_1:String}))) AS passes
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
          WHERE project_id = {p4:UInt32}
            AND person_id != distinct_id
        ) AS idm ON idm.distinct_id = ev.distinct_id
        WHERE ev.project_id = {p4:UInt32}
      )
      WHERE project_id = {p4:UInt32}
        AND time >= fromUnixTimestamp64Milli({p5:Int64}, 'UTC')
        AND time < fromUnixTimestamp64Milli({p6:Int64}, 'UTC')
    ) AS e
    INNER JOIN (
      SELECT user,
        min(t) AS anchor_t
      FROM (
        SELECT distinct_id AS user,
          toUnixTimestamp64Milli(time) AS t,
          event,
          ((startsWith((JSONExtractRaw(properties, {w_0:String}) AS w_v0), '"') AND (JSONExtractString(w_v0) = {w_1:String}))) AS passes
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
            WHERE project_id = {p4:UInt32}
              AND person_id != distinct_id
          ) AS idm ON idm.distinct_id = ev.distinct_id
          WHERE ev.project_id = {p4:UInt32}
        )
        WHERE project_id = {p4:UInt32}
          AND time >= fromUnixTimestamp64Milli({p7:Int64}, 'UTC')
          AND time < fromUnixTimestamp64Milli({p8:Int64}, 'UTC')
      )
      WHERE event = {p9:String}
        AND passes
      GROUP BY user
    ) AS a ON e.user = a.user
    WHERE e.t <= a.anchor_t
    GROUP BY e.user
  )
  GROUP BY path
)
SETTINGS max_memory_usage = 2147483648

-- flowsSql
-- inputs: project 1, 2024-03-04 to 2024-04-02; 5 steps after Signed up; limit 100; no merged id
-- parameters:
--   p0 UInt32 = 100
--   p1 UInt32 = 5
--   p2 String = "Signed up"
--   p3 String = "Signed up"
--   p4 UInt32 = 1
--   p5 Int64  = 1709510400000
--   p6 Int64  = 1712102400000
--   p7 Int64  = 1709510400000
--   p8 Int64  = 1712102400000
--   p9 String = "Signed up"
SELECT arraySlice(arraySort(x -> (-x.2, x.1), groupArray((path, c))), 1, {p0:UInt32}) AS top,
  sum(c) AS people,
  count() AS distinct_paths,
  sumForEach(arrayWithConstant(length(path), c)) AS reached
FROM (
  SELECT path,
    count() AS c
  FROM (
    SELECT arrayPushFront(arrayMap(x -> x.2, groupArraySortedIf({p1:UInt32})((e.t, e.event), (e.t, e.event) > (a.anchor_t, {p2:String}))), {p3:String}) AS path
    FROM (
      SELECT user_key AS user,
        toUnixTimestamp64Milli(time) AS t,
        event,
        1 AS passes
      FROM events FINAL
      WHERE project_id = {p4:UInt32}
        AND time >= fromUnixTimestamp64Milli({p5:Int64}, 'UTC')
        AND time < fromUnixTimestamp64Milli({p6:Int64}, 'UTC')
    ) AS e
    INNER JOIN (
      SELECT user,
        min(t) AS anchor_t
      FROM (
        SELECT user_key AS user,
          toUnixTimestamp64Milli(time) AS t,
          event,
          1 AS passes
        FROM events FINAL
        WHERE project_id = {p4:UInt32}
          AND time >= fromUnixTimestamp64Milli({p7:Int64}, 'UTC')
          AND time < fromUnixTimestamp64Milli({p8:Int64}, 'UTC')
      )
      WHERE event = {p9:String}
        AND passes
      GROUP BY user
    ) AS a ON e.user = a.user
    WHERE e.t >= a.anchor_t
    GROUP BY e.user
  )
  GROUP BY path
)
SETTINGS max_memory_usage = 2147483648

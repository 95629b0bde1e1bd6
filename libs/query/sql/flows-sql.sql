-- Rendered by `npm run sql:render` from libs/query/src/flows/flows-sql.ts; do not edit (test/rendered-sql/rendered-sql-files.ts lists the builders).

-- flowsSql
-- inputs: project 1, 2024-03-04 to 2024-04-02; 3 steps after Signed up; limit 10; merged ids, identity_lookup
-- parameters:
--   p0 UInt32  = 1
--   p1 Int64   = 1709510400000
--   p2 Int64   = 1712102400000
--   p3 UInt32  = 10
--   p4 String  = "Signed up"
--   p5 UInt32  = 3
--   p6 Int64   = 1709510400000
--   p7 Int64   = 1709510400000
--   p8 Int64   = 1712102400000
--   p9 Int64   = 1709510400000
--   p10 Int64  = 1709510400000
--   p11 Int64  = 1712102400000
--   p12 String = "Signed up"
WITH (
  SELECT arraySort(groupUniqArray(toString(event)))
  FROM events
  WHERE project_id = {p0:UInt32}
    AND time >= fromUnixTimestamp64Milli({p1:Int64}, 'UTC')
    AND time < fromUnixTimestamp64Milli({p2:Int64}, 'UTC')
) AS names
SELECT arraySlice(arraySort(x -> (-x.2, x.1), groupArray((path, c))), 1, {p3:UInt32}) AS top,
  sum(c) AS people,
  count() AS distinct_paths,
  sumForEach(arrayWithConstant(length(path), c)) AS reached
FROM (
  SELECT arrayPushFront(arrayMap(x -> names[x], ranks), {p4:String}) AS path,
    count() AS c
  FROM (
    SELECT arrayMap(x -> toUInt64(bitAnd(x, 18446744073709551615)), groupArraySortedIf({p5:UInt32})(e.k, e.k > a.anchor_k)) AS ranks
    FROM (
      SELECT person_key AS user,
        1 AS passes,
        event,
        bitOr(bitShiftLeft(toUInt128(toUInt64(toUnixTimestamp64Milli(time) - {p6:Int64})), 64), toUInt128(transform(toString(event), names, arrayEnumerate(names), 0))) AS k
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
        WHERE project_id = {p0:UInt32}
      )
      WHERE project_id = {p0:UInt32}
        AND time >= fromUnixTimestamp64Milli({p7:Int64}, 'UTC')
        AND time < fromUnixTimestamp64Milli({p8:Int64}, 'UTC')
    ) AS e
    INNER JOIN (
      SELECT user,
        min(k) AS anchor_k
      FROM (
        SELECT person_key AS user,
          1 AS passes,
          event,
          bitOr(bitShiftLeft(toUInt128(toUInt64(toUnixTimestamp64Milli(time) - {p9:Int64})), 64), toUInt128(transform(toString(event), names, arrayEnumerate(names), 0))) AS k
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
          WHERE project_id = {p0:UInt32}
        )
        WHERE project_id = {p0:UInt32}
          AND time >= fromUnixTimestamp64Milli({p10:Int64}, 'UTC')
          AND time < fromUnixTimestamp64Milli({p11:Int64}, 'UTC')
      )
      WHERE event = {p12:String}
        AND passes
      GROUP BY user
    ) AS a ON e.user = a.user
    WHERE e.k >= a.anchor_k
    GROUP BY e.user
  )
  GROUP BY ranks
)

-- flowsSql
-- inputs: project 1, 2024-03-04 to 2024-04-02; 2 steps before Purchased where plan == "pro"; limit 5; merged ids on a cluster (the identity_map join)
-- parameters:
--   p0 UInt32  = 1
--   p1 Int64   = 1709510400000
--   p2 Int64   = 1712102400000
--   p3 UInt32  = 5
--   p4 String  = "Purchased"
--   p5 UInt32  = 2
--   w_0 String = "plan"
--   w_1 String = "pro"
--   p6 Int64   = 1709510400000
--   p7 Int64   = 1709510400000
--   p8 Int64   = 1712102400000
--   p9 Int64   = 1709510400000
--   p10 Int64  = 1709510400000
--   p11 Int64  = 1712102400000
--   p12 String = "Purchased"
WITH (
  SELECT arraySort(groupUniqArray(toString(event)))
  FROM events
  WHERE project_id = {p0:UInt32}
    AND time >= fromUnixTimestamp64Milli({p1:Int64}, 'UTC')
    AND time < fromUnixTimestamp64Milli({p2:Int64}, 'UTC')
) AS names
SELECT arraySlice(arraySort(x -> (-x.2, x.1), groupArray((path, c))), 1, {p3:UInt32}) AS top,
  sum(c) AS people,
  count() AS distinct_paths,
  sumForEach(arrayWithConstant(length(path), c)) AS reached
FROM (
  SELECT arrayPushBack(arrayMap(x -> names[x], ranks), {p4:String}) AS path,
    count() AS c
  FROM (
    SELECT arrayReverse(arrayMap(x -> toUInt64(bitAnd(bitNot(x), 18446744073709551615)), groupArraySortedIf({p5:UInt32})(bitNot(e.k), e.k < a.anchor_k))) AS ranks
    FROM (
      SELECT distinct_id AS user,
        ((startsWith((JSONExtractRaw(properties, {w_0:String}) AS w_v0), '"') AND (JSONExtractString(w_v0) = {w_1:String}))) AS passes,
        event,
        bitOr(bitShiftLeft(toUInt128(toUInt64(toUnixTimestamp64Milli(time) - {p6:Int64})), 64), toUInt128(transform(toString(event), names, arrayEnumerate(names), 0))) AS k
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
        AND time >= fromUnixTimestamp64Milli({p7:Int64}, 'UTC')
        AND time < fromUnixTimestamp64Milli({p8:Int64}, 'UTC')
    ) AS e
    INNER JOIN (
      SELECT user,
        min(k) AS anchor_k
      FROM (
        SELECT distinct_id AS user,
          ((startsWith((JSONExtractRaw(properties, {w_0:String}) AS w_v0), '"') AND (JSONExtractString(w_v0) = {w_1:String}))) AS passes,
          event,
          bitOr(bitShiftLeft(toUInt128(toUInt64(toUnixTimestamp64Milli(time) - {p9:Int64})), 64), toUInt128(transform(toString(event), names, arrayEnumerate(names), 0))) AS k
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
          AND time >= fromUnixTimestamp64Milli({p10:Int64}, 'UTC')
          AND time < fromUnixTimestamp64Milli({p11:Int64}, 'UTC')
      )
      WHERE event = {p12:String}
        AND passes
      GROUP BY user
    ) AS a ON e.user = a.user
    WHERE e.k <= a.anchor_k
    GROUP BY e.user
  )
  GROUP BY ranks
)

-- flowsSql
-- inputs: project 1, 2024-03-04 to 2024-04-02; 5 steps after Signed up; limit 100; no merged id
-- parameters:
--   p0 UInt32  = 1
--   p1 Int64   = 1709510400000
--   p2 Int64   = 1712102400000
--   p3 UInt32  = 100
--   p4 String  = "Signed up"
--   p5 UInt32  = 5
--   p6 Int64   = 1709510400000
--   p7 Int64   = 1709510400000
--   p8 Int64   = 1712102400000
--   p9 Int64   = 1709510400000
--   p10 Int64  = 1709510400000
--   p11 Int64  = 1712102400000
--   p12 String = "Signed up"
WITH (
  SELECT arraySort(groupUniqArray(toString(event)))
  FROM events
  WHERE project_id = {p0:UInt32}
    AND time >= fromUnixTimestamp64Milli({p1:Int64}, 'UTC')
    AND time < fromUnixTimestamp64Milli({p2:Int64}, 'UTC')
) AS names
SELECT arraySlice(arraySort(x -> (-x.2, x.1), groupArray((path, c))), 1, {p3:UInt32}) AS top,
  sum(c) AS people,
  count() AS distinct_paths,
  sumForEach(arrayWithConstant(length(path), c)) AS reached
FROM (
  SELECT arrayPushFront(arrayMap(x -> names[x], ranks), {p4:String}) AS path,
    count() AS c
  FROM (
    SELECT arrayMap(x -> toUInt64(bitAnd(x, 18446744073709551615)), groupArraySortedIf({p5:UInt32})(e.k, e.k > a.anchor_k)) AS ranks
    FROM (
      SELECT user_key AS user,
        1 AS passes,
        event,
        bitOr(bitShiftLeft(toUInt128(toUInt64(toUnixTimestamp64Milli(time) - {p6:Int64})), 64), toUInt128(transform(toString(event), names, arrayEnumerate(names), 0))) AS k
      FROM events FINAL
      WHERE project_id = {p0:UInt32}
        AND time >= fromUnixTimestamp64Milli({p7:Int64}, 'UTC')
        AND time < fromUnixTimestamp64Milli({p8:Int64}, 'UTC')
    ) AS e
    INNER JOIN (
      SELECT user,
        min(k) AS anchor_k
      FROM (
        SELECT user_key AS user,
          1 AS passes,
          event,
          bitOr(bitShiftLeft(toUInt128(toUInt64(toUnixTimestamp64Milli(time) - {p9:Int64})), 64), toUInt128(transform(toString(event), names, arrayEnumerate(names), 0))) AS k
        FROM events FINAL
        WHERE project_id = {p0:UInt32}
          AND time >= fromUnixTimestamp64Milli({p10:Int64}, 'UTC')
          AND time < fromUnixTimestamp64Milli({p11:Int64}, 'UTC')
      )
      WHERE event = {p12:String}
        AND passes
      GROUP BY user
    ) AS a ON e.user = a.user
    WHERE e.k >= a.anchor_k
    GROUP BY e.user
  )
  GROUP BY ranks
)

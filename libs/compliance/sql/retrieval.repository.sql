-- Rendered by `npm run sql:render` from libs/compliance/src/retrieval-sql.ts; do not edit (test/rendered-sql/rendered-sql-files.ts lists the builders).

-- RetrievalRepository.write (retrievalLinesSql)
-- inputs: project 1; Data; ids device-1, user@example.com; group key company
-- parameters:
--   p0 UInt32                  = 1
--   ids Array(String)          = ["device-1","user@example.com"]
--   since DateTime64(3, 'UTC') = "1970-01-01 00:00:00.000"
--   keys Array(String)         = ["company"]
SELECT line
FROM (
  SELECT concat('{"event":', toJSONString(event), ',"properties":{"time":', toString(toUnixTimestamp(time)), ',"distinct_id":', toJSONString(distinct_id), ',"$insert_id":', toJSONString(insert_id), ',"mp_processing_time_ms":', toString(toUnixTimestamp64Milli(processed_at)), if(properties = '{}', '', concat(',', substring(properties, 2, length(properties) - 2))), '}}') AS line,
    0 AS part,
    time AS t,
    insert_id AS k
  FROM events FINAL
  WHERE project_id = {p0:UInt32}
    AND distinct_id IN {ids:Array(String)}
    AND time >= {since:DateTime64(3, 'UTC')}
  UNION ALL
  SELECT concat('{"$distinct_id":', toJSONString(profile_id), ',"$properties":', properties, '}'),
    1,
    toDateTime64(0, 3, 'UTC'),
    profile_id
  FROM profiles FINAL
  WHERE project_id = {p0:UInt32}
    AND group_key = ''
    AND profile_id IN {ids:Array(String)}
  UNION ALL
  SELECT concat('{"$distinct_id":', toJSONString(id), ',"$group_memberships":{', arrayStringConcat(arraySort(groupArray(concat(toJSONString(key), ':[', arrayStringConcat(arraySort(ids), ','), ']'))), ','), '}}') AS line,
    2 AS part,
    toDateTime64(0, 3, 'UTC') AS t,
    id AS k
  FROM (
    SELECT id,
      key,
      groupUniqArrayArray(values) AS ids
    FROM (
      SELECT distinct_id AS id,
        arrayJoin({keys:Array(String)}) AS key,
        arrayFilter(v -> v NOT IN ('', 'null'), if(JSONType(properties, key) = 'Array', JSONExtractArrayRaw(properties, key), [JSONExtractRaw(properties, key)])) AS values
      FROM events FINAL
      WHERE project_id = {p0:UInt32}
        AND distinct_id IN {ids:Array(String)}
        AND time >= {since:DateTime64(3, 'UTC')}
      UNION ALL
      SELECT profile_id,
        arrayJoin({keys:Array(String)}) AS key,
        arrayFilter(v -> v NOT IN ('', 'null'), if(JSONType(properties, key) = 'Array', JSONExtractArrayRaw(properties, key), [JSONExtractRaw(properties, key)]))
      FROM profiles FINAL
      WHERE project_id = {p0:UInt32}
        AND group_key = ''
        AND profile_id IN {ids:Array(String)}
    )
    WHERE notEmpty(values)
    GROUP BY id, key
  )
  GROUP BY id
)
ORDER BY part, t, k

-- RetrievalRepository.write (retrievalLinesSql)
-- inputs: project 1; Data; the same ids; no group key
-- parameters:
--   p0 UInt32                  = 1
--   ids Array(String)          = ["device-1","user@example.com"]
--   since DateTime64(3, 'UTC') = "1970-01-01 00:00:00.000"
SELECT line
FROM (
  SELECT concat('{"event":', toJSONString(event), ',"properties":{"time":', toString(toUnixTimestamp(time)), ',"distinct_id":', toJSONString(distinct_id), ',"$insert_id":', toJSONString(insert_id), ',"mp_processing_time_ms":', toString(toUnixTimestamp64Milli(processed_at)), if(properties = '{}', '', concat(',', substring(properties, 2, length(properties) - 2))), '}}') AS line,
    0 AS part,
    time AS t,
    insert_id AS k
  FROM events FINAL
  WHERE project_id = {p0:UInt32}
    AND distinct_id IN {ids:Array(String)}
    AND time >= {since:DateTime64(3, 'UTC')}
  UNION ALL
  SELECT concat('{"$distinct_id":', toJSONString(profile_id), ',"$properties":', properties, '}'),
    1,
    toDateTime64(0, 3, 'UTC'),
    profile_id
  FROM profiles FINAL
  WHERE project_id = {p0:UInt32}
    AND group_key = ''
    AND profile_id IN {ids:Array(String)}
)
ORDER BY part, t, k

-- RetrievalRepository.write (retrievalLinesSql)
-- inputs: project 1; Categories (CCPA: since 2024-01-01); the same ids
-- parameters:
--   p0 UInt32                  = 1
--   ids Array(String)          = ["device-1","user@example.com"]
--   since DateTime64(3, 'UTC') = "2024-01-01 00:00:00.000"
SELECT line
FROM (
  SELECT concat('{"distinct_id":', toJSONString(distinct_id), ',"event_properties":', toJSONString(arraySort(groupUniqArrayArray(JSONExtractKeys(properties)))), '}') AS line,
    0 AS part,
    distinct_id AS k
  FROM events FINAL
  WHERE project_id = {p0:UInt32}
    AND distinct_id IN {ids:Array(String)}
    AND time >= {since:DateTime64(3, 'UTC')}
  GROUP BY distinct_id
  UNION ALL
  SELECT concat('{"distinct_id":', toJSONString(profile_id), ',"profile_properties":', toJSONString(arraySort(JSONExtractKeys(properties))), '}'),
    1,
    profile_id
  FROM profiles FINAL
  WHERE project_id = {p0:UInt32}
    AND group_key = ''
    AND profile_id IN {ids:Array(String)}
)
ORDER BY part, k

-- RetrievalRepository.write (retrievalLinesSql)
-- inputs: project 1; Sources; the same ids
-- parameters:
--   p0 UInt32                  = 1
--   ids Array(String)          = ["device-1","user@example.com"]
--   since DateTime64(3, 'UTC') = "1970-01-01 00:00:00.000"
SELECT concat('{"distinct_id":', toJSONString(distinct_id), ',"sources":', toJSONString(arraySort(arrayFilter(x -> x != '', arrayConcat(groupUniqArray(JSONExtractString(properties, '$lib')), groupUniqArray(JSONExtractString(properties, 'mp_lib')))))), '}') AS line
FROM events FINAL
WHERE project_id = {p0:UInt32}
  AND distinct_id IN {ids:Array(String)}
  AND time >= {since:DateTime64(3, 'UTC')}
GROUP BY distinct_id
ORDER BY distinct_id

-- RetrievalRepository.writeFile (retrievalFileSql)
-- inputs: chDB and the local folder; the Sources lines above into /data/.partial/retrieval.ndjson.gz
-- parameters:
--   p0 UInt32                  = 1
--   ids Array(String)          = ["device-1","user@example.com"]
--   since DateTime64(3, 'UTC') = "1970-01-01 00:00:00.000"
INSERT INTO FUNCTION file('/data/.partial/retrieval.ndjson.gz', 'TabSeparatedRaw', 'line String', 'gzip')
SELECT concat('{"distinct_id":', toJSONString(distinct_id), ',"sources":', toJSONString(arraySort(arrayFilter(x -> x != '', arrayConcat(groupUniqArray(JSONExtractString(properties, '$lib')), groupUniqArray(JSONExtractString(properties, 'mp_lib')))))), '}') AS line
FROM events FINAL
WHERE project_id = {p0:UInt32}
  AND distinct_id IN {ids:Array(String)}
  AND time >= {since:DateTime64(3, 'UTC')}
GROUP BY distinct_id
ORDER BY distinct_id

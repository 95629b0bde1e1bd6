-- Rendered by `npm run sql:render` from libs/identity/src/identity-map-sql.ts; do not edit (test/rendered-sql/rendered-sql-files.ts lists the builders).

-- IdentityRepository.load (clusterRowsSql)
-- inputs: project 1; ids device-1, user@example.com
-- parameters:
--   p0 UInt32         = 1
--   ids Array(String) = ["device-1","user@example.com"]
SELECT distinct_id,
  person_id,
  identified_ms,
  linked_ms,
  version
FROM identity_map FINAL
WHERE project_id = {p0:UInt32}
  AND person_id IN (
    SELECT person_id
    FROM identity_map FINAL
    WHERE project_id = {p0:UInt32}
      AND distinct_id IN {ids:Array(String)}
    UNION ALL
    SELECT arrayJoin({ids:Array(String)})
  )

-- IdentityRepository.write (IDENTITY_MAP_INSERT)
-- inputs: the rows as JSONEachRow lines in the body
-- parameters: none
INSERT INTO identity_map
FORMAT JSONEachRow

-- IdentityRepository.write (lookupInsertSql)
-- inputs: project 1; device-1 merged into user@example.com
-- parameters:
--   project UInt32        = 1
--   ids Array(String)     = ["device-1","user@example.com"]
--   persons Array(String) = ["user@example.com","user@example.com"]
INSERT INTO identity_lookup
SELECT {project:UInt32},
  toUInt64(own),
  bitXor(own, reinterpretAsUInt128(sipHash128Keyed((toUInt64({project:UInt32}), toUInt64(0)), person_id)))
FROM (
  SELECT arrayJoin(arrayZip({ids:Array(String)}, {persons:Array(String)})) AS pair,
    pair.1 AS distinct_id,
    pair.2 AS person_id,
    reinterpretAsUInt128(sipHash128Keyed((toUInt64({project:UInt32}), toUInt64(0)), distinct_id)) AS own
)

-- IdentityRepository.resolve (mergedRowsSql)
-- inputs: project 1; ids device-1, user@example.com
-- parameters:
--   p0 UInt32         = 1
--   ids Array(String) = ["device-1","user@example.com"]
SELECT distinct_id,
  person_id,
  identified_ms,
  linked_ms,
  version
FROM identity_map FINAL
WHERE project_id = {p0:UInt32}
  AND distinct_id IN {ids:Array(String)}
  AND person_id != distinct_id

-- IdentityRepository.rewriteLookup (LOOKUP_REWRITE)
-- inputs: none
-- parameters: none
ALTER TABLE identity_lookup DELETE
WHERE 0

-- IdentityRepository.forget (forgetLookupSql)
-- inputs: project 1; ids device-1, user@example.com
-- parameters:
--   p0 UInt32         = 1
--   keyProject UInt32 = 1
--   ids Array(String) = ["device-1","user@example.com"]
ALTER TABLE identity_lookup DELETE
WHERE project_id = {p0:UInt32}
  AND key IN (
    SELECT toUInt64(reinterpretAsUInt128(sipHash128Keyed((toUInt64({keyProject:UInt32}), toUInt64(0)), arrayJoin({ids:Array(String)}))))
  )

-- IdentityRepository.lookupRows (lookupRowsSql)
-- inputs: project 1; ids device-1, user@example.com
-- parameters:
--   p0 UInt32         = 1
--   keyProject UInt32 = 1
--   ids Array(String) = ["device-1","user@example.com"]
SELECT count() AS n
FROM identity_lookup
WHERE project_id = {p0:UInt32}
  AND key IN (
    SELECT toUInt64(reinterpretAsUInt128(sipHash128Keyed((toUInt64({keyProject:UInt32}), toUInt64(0)), arrayJoin({ids:Array(String)}))))
  )

-- Rendered by `npm run sql:render` from libs/warehouse-imports/src/imported-data.repository.ts; do not edit (test/rendered-sql/rendered-sql-files.ts lists the builders).

-- ImportedDataRepository.deleteEvents (the event store's deleteEventsSql of importedEventsSql)
-- inputs: project 1; import 7; one server
-- parameters:
--   p0 UInt32 = 1
--   p1 String = "7"
DELETE FROM events
WHERE project_id = {p0:UInt32}
  AND JSONExtractString(properties, '$warehouse_import_id') = {p1:String}

-- ImportedDataRepository.countEvents (the event store's countEventsSql of importedEventsSql)
-- inputs: project 1; import 7
-- parameters:
--   p0 UInt32 = 1
--   p1 String = "7"
SELECT count() AS n
FROM events
WHERE project_id = {p0:UInt32}
  AND JSONExtractString(properties, '$warehouse_import_id') = {p1:String}

-- Rendered by `npm run sql:render` from libs/event-store/src/events.repository.ts; do not edit (test/rendered-sql/rendered-sql-files.ts lists the builders).

-- EventsRepository.insert (eventsInsert)
-- inputs: a batch of JSONEachRow lines in the body; dedup token 0:0-99; settings input_format_json_read_objects_as_strings = 1, async_insert = 0, max_partitions_per_insert_block = "0", insert_deduplicate = 1, insert_deduplication_token = "0:0-99"
-- parameters: none
INSERT INTO events
FORMAT JSONEachRow

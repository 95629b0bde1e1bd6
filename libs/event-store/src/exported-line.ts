/**
 * One event as the raw export writes it (one JSON object per line), assembled by ClickHouse from the
 * events table's columns: the stored properties text is spliced in, never re-parsed. Compliance
 * retrievals write the same lines. `resolved`: read from resolvedEventsSql (docs/identity.md), so
 * `distinct_id` is the person's canonical id and, when it differs, the id the event was sent with
 * is in `$distinct_id_before_identity`, as the real raw export writes it under ID merge.
 */
export const exportedEventLineSql = (timeInMs = false, resolved = false): string => `concat(
  '{"event":', toJSONString(event),
  ',"properties":{"time":', toString(${timeInMs ? 'toUnixTimestamp64Milli(time)' : 'toUnixTimestamp(time)'}),
  ',"distinct_id":', toJSONString(distinct_id),
  ${resolved ? `if(original_distinct_id = distinct_id, '', concat(',"$distinct_id_before_identity":', toJSONString(original_distinct_id))),` : ''}
  ',"$insert_id":', toJSONString(insert_id),
  ',"mp_processing_time_ms":', toString(toUnixTimestamp64Milli(processed_at)),
  if(properties = '{}', '', concat(',', substring(properties, 2, length(properties) - 2))),
  '}}')`;

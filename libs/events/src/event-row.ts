export interface EventRowInput {
  projectId: number;
  event: string;
  timeMs: number;
  distinctId: string;
  insertId: string;
  /** Custom properties only: time, distinct_id, $insert_id and token are columns or not kept. */
  properties: Record<string, unknown>;
  processedAtMs: number;
}

/** One stored event as a JSONEachRow line of the events table, ready to insert as-is. */
export interface EventRow {
  distinctId: string;
  line: string;
  byteLength: number;
}

/** `seconds.mmm`: the text DateTime64(3) parses exactly. */
export function formatEpochSeconds(ms: number): string {
  const millis = ms % 1000;
  return `${(ms - millis) / 1000}.${millis < 10 ? '00' : millis < 100 ? '0' : ''}${millis}`;
}

/**
 * The properties go in as a JSON object: ClickHouse reads an object into a String column as its
 * text (input_format_json_read_objects_as_strings), so they are serialised once and never escaped twice.
 */
export function encodeEventRow(input: EventRowInput): EventRow {
  const line =
    `{"project_id":${input.projectId},"event":${JSON.stringify(input.event)},` +
    `"time":"${formatEpochSeconds(input.timeMs)}","distinct_id":${JSON.stringify(input.distinctId)},` +
    `"insert_id":"${input.insertId}","properties":${JSON.stringify(input.properties)},` +
    `"processed_at":"${formatEpochSeconds(input.processedAtMs)}"}\n`;
  return { distinctId: input.distinctId, line, byteLength: Buffer.byteLength(line) };
}

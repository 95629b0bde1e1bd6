import { IdentityLink } from './identity-link';
import { mayHoldNumber } from './number-walk';

export interface EventRowInput {
  projectId: number;
  event: string;
  timeMs: number;
  distinctId: string;
  insertId: string;
  /**
   * Custom properties only: time, distinct_id, $insert_id and token are columns or not kept. Written
   * as they are: a huge double must already be in exponent form (`exponentIfHuge`), as the event
   * rules leave every value, so that the row is not walked a second time.
   */
  properties: Record<string, unknown>;
  processedAtMs: number;
}

/** One stored event as a JSONEachRow line of the events table, ready to insert as-is. */
export interface EventRow {
  distinctId: string;
  insertId: string;
  line: string;
  /** The identity link the event makes (docs/identity.md), published beside it. */
  link?: IdentityLink;
}

/**
 * At least the UTF-8 size of a text: three bytes per UTF-16 unit at most (a surrogate pair is two
 * units for four bytes). Free, where `Buffer.byteLength` scans (and first flattens) the text: it
 * took 2.4 % of the gateway per event. Exact sizes are taken only where the bound is too high.
 */
export const utf8SizeBound = (text: string): number => text.length * 3;

/** `seconds.mmm`: the text DateTime64(3) parses exactly. */
export function formatEpochSeconds(ms: number): string {
  const millis = ms % 1000;
  return `${(ms - millis) / 1000}.${millis < 10 ? '00' : millis < 100 ? '0' : ''}${millis}`;
}

/** Beyond 64-bit integers, ClickHouse's JSON functions refuse the whole document. */
const LARGEST_JSON_INTEGER = 2 ** 63;

const isHugeDouble = (value: number): boolean => Number.isInteger(value) && Math.abs(value) >= LARGEST_JSON_INTEGER;

/**
 * JSON.stringify writes doubles from 2^63 up to 1e21 as integer digits, which would make every
 * property of a row unreadable to queries: those are written in exponent notation (the same value).
 */
export const exponentIfHuge = (value: number): number | RawJSON =>
  isHugeDouble(value) ? JSON.rawJSON(value.toExponential()) : value;

function exponentForHugeDoubles(_key: string, value: unknown): unknown {
  return typeof value === 'number' ? exponentIfHuge(value) : value;
}

/**
 * Properties as stored (profiles), huge doubles in exponent notation (`exponentIfHuge`). Integers a
 * client sent with more digits than a double holds keep their exact text (`JSON.rawJSON` from the
 * parser): the export returns them as sent. The values are checked before writing (a tenth of the
 * cost of scanning the written text for digit runs).
 */
export function serializeProperties(properties: Record<string, unknown>): string {
  return mayHoldNumber(properties, isHugeDouble)
    ? JSON.stringify(properties, exponentForHugeDoubles)
    : JSON.stringify(properties);
}

/** The end of every line encodeEventRow writes: `processed_at` is its last field. */
const PROCESSED_AT_TAIL = /,"processed_at":"[0-9.]*"\}(\n?)$/;

/**
 * A line encodeEventRow wrote, with `processed_at` set anew and every other byte as it was
 * (dlq:replay stamps the rows it sends back); undefined when the line does not end as those lines do.
 */
export function withProcessedAt(line: string, processedAtMs: number): string | undefined {
  return PROCESSED_AT_TAIL.test(line)
    ? line.replace(PROCESSED_AT_TAIL, `,"processed_at":"${formatEpochSeconds(processedAtMs)}"}$1`)
    : undefined;
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
  return { distinctId: input.distinctId, insertId: input.insertId, line };
}

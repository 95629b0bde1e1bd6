import { EVENT_LIMITS, FORBIDDEN_IDS, INSERT_ID_PATTERN, RESERVED_PROPERTIES } from './event-limits';
import { resolveEventTime, TimePolicy } from './event-time';
import { encodeEventRow, EventRow, exponentIfHuge, utf8SizeBound } from './event-row';
import { IdentityMode, identityLinkOf } from './identity-link';

/** The data dictionary's say over ingestion (its `dropped` flags); none by default. */
export interface EventDictionary {
  isEventDropped(event: string): boolean;
  droppedProperties(event: string): ReadonlySet<string> | undefined;
}

export interface EventContext {
  projectId: number;
  /** Receipt time; also the event's mp_processing_time_ms. */
  nowMs: number;
  policy: TimePolicy;
  /** Strict /import requires $insert_id; elsewhere a missing one is generated (and never deduplicates). */
  requireInsertId: boolean;
  /** Makes the $insert_id of an event sent without one: the caller's id source, so this stays pure. */
  newInsertId: () => string;
  /** Request IP to record as `$ip` (`ip=1`) when the event has none. */
  ip?: string;
  dictionary?: EventDictionary;
  /** The project's identity merge mode: which events link ids (none when absent). */
  identityMerge?: IdentityMode;
}

export type EventOutcome =
  | { kind: 'accepted'; row: EventRow }
  /** `$ignore`, or dropped by the data dictionary: not stored, not an error. */
  | { kind: 'skipped'; reason: 'ignored' | 'dropped' }
  | { kind: 'rejected'; field: string; message: string; insertId: string };

class InvalidField extends Error {
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(message);
  }
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value) && !JSON.isRawJSON(value);

/** Cuts at 255 characters without splitting a surrogate pair. */
function truncate(text: string): string {
  if (text.length <= EVENT_LIMITS.maxStringLength) return text;
  const cut = EVENT_LIMITS.maxStringLength;
  const code = text.charCodeAt(cut - 1);
  return text.slice(0, code >= 0xd800 && code <= 0xdbff ? cut - 1 : cut);
}

/**
 * Checks list/object sizes and nesting, truncating long strings and writing huge doubles as the row
 * stores them; copies only what it changes.
 */
function cleanValue(value: unknown, field: string, depth: number): unknown {
  if (typeof value === 'string') return truncate(value);
  if (typeof value === 'number') return exponentIfHuge(value);
  if (typeof value !== 'object' || value === null || JSON.isRawJSON(value)) return value;
  if (depth >= EVENT_LIMITS.maxNestingDepth) {
    throw new InvalidField(field, `nested deeper than ${EVENT_LIMITS.maxNestingDepth} levels`);
  }
  if (Array.isArray(value)) {
    if (value.length > EVENT_LIMITS.maxListItems) {
      throw new InvalidField(field, `list has ${value.length} items; fewer than 255 allowed`);
    }
    let copy: unknown[] | undefined;
    value.forEach((item, i) => {
      const cleaned = cleanValue(item, field, depth + 1);
      if (cleaned !== item) (copy ??= value.slice())[i] = cleaned;
    });
    return copy ?? value;
  }
  const object = value as Record<string, unknown>;
  const keys = Object.keys(object);
  if (keys.length > EVENT_LIMITS.maxObjectKeys) {
    throw new InvalidField(field, `object has ${keys.length} keys; fewer than 255 allowed`);
  }
  let copy: Record<string, unknown> | undefined;
  for (const key of keys) {
    const cleaned = cleanValue(object[key], `${field}.${key}`, depth + 1);
    if (cleaned !== object[key]) (copy ??= { ...object })[key] = cleaned;
  }
  return copy ?? object;
}

function checkId(value: string, field: string): void {
  if (FORBIDDEN_IDS.has(value.trim().toLowerCase()))
    throw new InvalidField(field, `"${value}" is not allowed as ${field}`);
}

/** `$user_id` wins; else a `$device_id` stands in for a missing distinct_id as `$device:<id>`. */
function resolveDistinctId(properties: Record<string, unknown>): string {
  const { distinct_id: given, $user_id: userId, $device_id: deviceId } = properties;
  let value = given;
  if (userId !== undefined && userId !== null && userId !== '') value = userId;
  else if ((given === undefined || given === null) && deviceId !== undefined && deviceId !== null && deviceId !== '') {
    value = `$device:${String(deviceId)}`;
  }
  if (value === undefined || value === null)
    throw new InvalidField('properties.distinct_id', 'properties.distinct_id is required');
  if (typeof value !== 'string' && typeof value !== 'number') {
    throw new InvalidField('properties.distinct_id', 'properties.distinct_id must be a string');
  }
  const distinctId = String(value);
  if (distinctId.length > EVENT_LIMITS.maxStringLength) {
    throw new InvalidField('properties.distinct_id', 'properties.distinct_id is longer than 255 characters');
  }
  if (distinctId !== '') checkId(distinctId, 'properties.distinct_id');
  return distinctId;
}

function resolveInsertId(value: unknown, context: EventContext): string {
  if (value === undefined || value === null || value === '') {
    if (context.requireInsertId) throw new InvalidField('properties.$insert_id', 'properties.$insert_id is required');
    return context.newInsertId();
  }
  if (typeof value !== 'string' || !INSERT_ID_PATTERN.test(value)) {
    throw new InvalidField(
      'properties.$insert_id',
      'properties.$insert_id must be 1 to 36 characters of A-Z, a-z, 0-9 and "-"',
    );
  }
  checkId(value, 'properties.$insert_id');
  return value;
}

const isIgnored = (flag: unknown) => flag !== undefined && flag !== false && flag !== 'false' && flag !== null;

/**
 * JSON.stringify writes an unpaired surrogate (which a client can send as a valid JSON escape such
 * as `\ud800`) as that escape, and writes no other `\ud800`–`\udfff` text: ClickHouse refuses the
 * row ("missing second part of surrogate pair") or stores invalid UTF-8. The finished line is
 * checked, first by a plain substring search (about 14 ns an event against 100 ns for the regular
 * expression, of ≈6 µs to parse, check and shape it); a literal `\\ud800` matches too, harmlessly.
 */
const LONE_SURROGATE_ESCAPE = /\\ud[89a-f]/;
const hasLoneSurrogate = (line: string) => line.includes('\\ud') && LONE_SURROGATE_ESCAPE.test(line);

/** A copy with every unpaired surrogate of every string and key replaced by U+FFFD. */
function wellFormed(value: unknown): unknown {
  if (typeof value === 'string') return value.toWellFormed();
  if (typeof value !== 'object' || value === null || JSON.isRawJSON(value)) return value;
  if (Array.isArray(value)) return value.map(wellFormed);
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key.toWellFormed(), wellFormed(item)]));
}

/**
 * Applies every ingestion rule to one event as sent and, if it passes, shapes the row the writer
 * stores: done once, at the gateway, so nothing downstream parses the event again. Unpaired
 * surrogates (names, values, keys, ids) are stored as U+FFFD, as the real API stores them; the
 * rules then run again on the repaired event, so the data dictionary sees the stored names.
 */
export function validateEvent(raw: unknown, context: EventContext): EventOutcome {
  const outcome = validateAsSent(raw, context);
  if (outcome.kind !== 'accepted' || !hasLoneSurrogate(outcome.row.line)) return outcome;
  return validateAsSent(wellFormed(raw), context);
}

function validateAsSent(raw: unknown, context: EventContext): EventOutcome {
  const rawProperties = isObject(raw) ? raw.properties : undefined;
  const givenInsertId =
    isObject(rawProperties) && typeof rawProperties.$insert_id === 'string' ? rawProperties.$insert_id : '';
  try {
    if (!isObject(raw)) throw new InvalidField('event', 'each event must be a JSON object');
    const { event } = raw;
    if (typeof event !== 'string' || event === '') throw new InvalidField('event', 'event must be a non-empty string');
    if (event.length > EVENT_LIMITS.maxEventNameLength)
      throw new InvalidField('event', 'event is longer than 255 characters');
    if (!isObject(rawProperties)) throw new InvalidField('properties', 'properties must be a JSON object');
    if (isIgnored(rawProperties.$ignore)) return { kind: 'skipped', reason: 'ignored' };
    if (context.dictionary?.isEventDropped(event)) return { kind: 'skipped', reason: 'dropped' };

    const time = resolveEventTime(rawProperties.time, context.nowMs, context.policy);
    if (!time.ok) throw new InvalidField('properties.time', time.message);
    const distinctId = resolveDistinctId(rawProperties);
    const insertId = resolveInsertId(rawProperties.$insert_id, context);

    const names = Object.keys(rawProperties);
    if (names.length > EVENT_LIMITS.maxProperties) {
      throw new InvalidField('properties', `event has ${names.length} properties; fewer than 255 allowed`);
    }
    const dropped = context.dictionary?.droppedProperties(event);
    const custom: Record<string, unknown> = {};
    for (const name of names) {
      if (RESERVED_PROPERTIES.has(name) || dropped?.has(name)) continue;
      custom[name] = cleanValue(rawProperties[name], `properties.${name}`, 0);
    }
    if (context.ip !== undefined && custom.$ip === undefined) custom.$ip = context.ip;

    const row = encodeEventRow({
      projectId: context.projectId,
      event,
      timeMs: time.timeMs,
      distinctId,
      insertId,
      properties: custom,
      processedAtMs: context.nowMs,
    });
    if (
      utf8SizeBound(row.line) >= EVENT_LIMITS.maxEventBytes &&
      Buffer.byteLength(row.line) >= EVENT_LIMITS.maxEventBytes
    ) {
      throw new InvalidField('properties', 'event is 1 MB or larger');
    }
    if (context.identityMerge && context.identityMerge !== 'disabled') {
      const link = identityLinkOf({
        projectId: context.projectId,
        mode: context.identityMerge,
        policy: context.policy,
        event,
        properties: rawProperties,
        distinctId,
        timeMs: time.timeMs,
      });
      if (link) row.link = link;
    }
    return { kind: 'accepted', row };
  } catch (error) {
    if (!(error instanceof InvalidField)) throw error;
    return { kind: 'rejected', field: error.field, message: error.message, insertId: givenInsertId };
  }
}

import { EVENT_LIMITS } from '@analytics/events';
import { Properties, PropertyValue } from './profile-update';

/** A record the gateway refuses, with the reason the client is told. */
export class InvalidRecord extends Error {}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
/** Most text has neither NULs nor surrogates: one test, then nothing to replace. */
const MAYBE_UNSTORABLE = /[\0\uD800-\uDFFF]/;

/**
 * Text Postgres `jsonb` can hold: it refuses NUL characters and unpaired surrogates, so NULs are
 * dropped and a lone surrogate becomes U+FFFD (what any UTF-8 encoder makes of it anyway).
 */
export function storableText(text: string): string {
  if (!MAYBE_UNSTORABLE.test(text)) return text;
  return text.replace(/\0/g, '').replace(LONE_SURROGATE, '\uFFFD');
}

/** Strings are cut at 255 characters (the real API's limit on string values), never inside a surrogate pair. */
function truncate(text: string): string {
  const cut = EVENT_LIMITS.maxStringLength;
  if (text.length <= cut) return text;
  const code = text.charCodeAt(cut - 1);
  return text.slice(0, code >= 0xd800 && code <= 0xdbff ? cut - 1 : cut);
}

export const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value) && !JSON.isRawJSON(value);

/** A property value as stored: the events' limits on nesting and sizes, long strings truncated. */
export function cleanValue(value: unknown, path: string, depth = 0): PropertyValue {
  if (typeof value === 'string') return truncate(storableText(value));
  if (value === null || typeof value === 'number' || typeof value === 'boolean' || JSON.isRawJSON(value))
    return value as PropertyValue;
  if (typeof value !== 'object') throw new InvalidRecord(`${path} is not a JSON value`);
  if (depth >= EVENT_LIMITS.maxNestingDepth)
    throw new InvalidRecord(`${path} is nested deeper than ${EVENT_LIMITS.maxNestingDepth} levels`);
  if (Array.isArray(value)) {
    if (value.length > EVENT_LIMITS.maxListItems)
      throw new InvalidRecord(`${path} has ${value.length} items; fewer than 255 allowed`);
    return value.map((item) => cleanValue(item, path, depth + 1));
  }
  const entries = Object.entries(value);
  if (entries.length > EVENT_LIMITS.maxObjectKeys)
    throw new InvalidRecord(`${path} has ${entries.length} keys; fewer than 255 allowed`);
  return Object.fromEntries(
    entries.map(([key, item]) => [storableText(key), cleanValue(item, `${path}.${key}`, depth + 1)]),
  );
}

/** The number a property holds, or undefined when it holds something else. Big integers count. */
export function numericValue(value: PropertyValue | undefined): number | undefined {
  if (typeof value === 'number') return value;
  if (JSON.isRawJSON(value)) return Number(value.rawJSON);
  return undefined;
}

/** An integer beyond 2^53 by its exact digits; other numbers as JavaScript prints them (-0 as 0). */
function numberKey(value: number): string {
  return Number.isInteger(value) && !Number.isSafeInteger(value) ? BigInt(value).toString() : String(value);
}

/**
 * The canonical JSON of a value: what `$union` and `$remove` compare list items by (JSON equality,
 * object key order ignored, numbers by exact value, whether kept as digits beyond 2^53 or not).
 * Equal values have equal keys, so a list's items can be looked up in a Map instead of compared
 * with every new value.
 */
export function valueKey(value: PropertyValue): string {
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'number') return numberKey(value);
  if (value === null || typeof value === 'boolean') return String(value);
  if (JSON.isRawJSON(value))
    return /^-?\d+$/.test(value.rawJSON) ? BigInt(value.rawJSON).toString() : numberKey(Number(value.rawJSON));
  if (Array.isArray(value)) return `[${value.map(valueKey).join(',')}]`;
  const keys = Object.keys(value).sort();
  return `{${keys.map((key) => `${JSON.stringify(key)}:${valueKey(value[key])}`).join(',')}}`;
}

/** UTF-8 bytes of a value's JSON: what the profile limits measure. */
export const jsonBytes = (value: PropertyValue | Properties): number => Buffer.byteLength(JSON.stringify(value));

/** What a stored value is, for messages. */
export function describeValue(value: PropertyValue): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (JSON.isRawJSON(value)) return 'a number';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

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
  if (value === null || typeof value === 'number' || typeof value === 'boolean' || JSON.isRawJSON(value)) return value as PropertyValue;
  if (typeof value !== 'object') throw new InvalidRecord(`${path} is not a JSON value`);
  if (depth >= EVENT_LIMITS.maxNestingDepth) throw new InvalidRecord(`${path} is nested deeper than ${EVENT_LIMITS.maxNestingDepth} levels`);
  if (Array.isArray(value)) {
    if (value.length > EVENT_LIMITS.maxListItems) throw new InvalidRecord(`${path} has ${value.length} items; fewer than 255 allowed`);
    return value.map((item) => cleanValue(item, path, depth + 1));
  }
  const entries = Object.entries(value);
  if (entries.length > EVENT_LIMITS.maxObjectKeys) throw new InvalidRecord(`${path} has ${entries.length} keys; fewer than 255 allowed`);
  return Object.fromEntries(entries.map(([key, item]) => [storableText(key), cleanValue(item, `${path}.${key}`, depth + 1)]));
}

/** The number a property holds, or undefined when it holds something else. Big integers count. */
export function numericValue(value: PropertyValue | undefined): number | undefined {
  if (typeof value === 'number') return value;
  if (JSON.isRawJSON(value)) return Number(value.rawJSON);
  return undefined;
}

/** JSON equality: what `$union` and `$remove` compare list items by. Key order does not matter. */
export function sameValue(a: PropertyValue, b: PropertyValue): boolean {
  if (a === b) return true;
  const [x, y] = [numericValue(a), numericValue(b)];
  if (x !== undefined || y !== undefined) {
    if (JSON.isRawJSON(a) && JSON.isRawJSON(b)) return a.rawJSON === b.rawJSON;
    return x === y;
  }
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((item, i) => sameValue(item, b[i]));
  }
  if (!isPlainObject(a) || !isPlainObject(b)) return false;
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((key) => Object.hasOwn(b, key) && sameValue((a as Properties)[key], (b as Properties)[key]));
}

/** What a stored value is, for messages. */
export function describeValue(value: PropertyValue): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (JSON.isRawJSON(value)) return 'a number';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

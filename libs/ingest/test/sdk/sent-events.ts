import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** The installed version of an SDK package, as it reports itself in `$lib_version`. */
export function installedVersion(pkg: 'mixpanel' | 'mixpanel-browser'): string {
  return (JSON.parse(readFileSync(require.resolve(`${pkg}/package.json`), 'utf8')) as { version: string }).version;
}

/** A file shipped inside an installed package. */
export const packageFile = (pkg: string, path: string) => join(dirname(require.resolve(`${pkg}/package.json`)), path);

/** Text beyond the Basic Multilingual Plane (UTF-16 surrogate pairs; 4 bytes in UTF-8), emoji sequences included. */
export const ASTRAL_TEXT = '🚀 👩‍💻 𝄞 😀';

/** Custom properties of every JSON type, the tricky strings and numbers included. */
export function everyJsonType(n: number): Record<string, unknown> {
  return {
    n,
    text: `item ${n}`,
    unicode: 'Grüße, 世界 — “quoted” \\ back\nslash',
    empty: '',
    negative: -42,
    ratio: 0.1 + 0.2,
    large: 2 ** 53 - 1,
    tiny: 1e-7,
    yes: true,
    no: false,
    nothing: null,
    list: ['a', 1, 2.5, false, null, 'ü'],
    empty_list: [],
    nested: { plan: { name: 'pro', seats: 3, tags: ['x', 'y'] }, active: true },
    empty_object: {},
  };
}

export interface SentEvent {
  event: string;
  properties: Record<string, unknown>;
}

export interface ExpectedStoredEvent {
  event: string;
  distinct_id: unknown;
  time_ms: unknown;
  insert_id: unknown;
  properties: Record<string, unknown>;
}

/** Seconds (integer or fractional) or integer milliseconds, the two forms Mixpanel's `time` comes in. */
const toMs = (time: number) => (Number.isInteger(time) && time >= 1e11 ? time : Math.round(time * 1000));

/**
 * How an event the SDK put on the wire must come back from storage: `time`, `distinct_id` and
 * `$insert_id` become columns, `token` is not kept, every other property is stored as sent.
 * Absent `time` / `$insert_id` are filled by the gateway (receipt time, a UUID); `gatewayAdds` are
 * the properties it adds itself (`$ip` when the SDK asks with `ip=1`).
 */
export function asStored(
  { event, properties }: SentEvent,
  gatewayAdds: Record<string, unknown> = {},
): ExpectedStoredEvent {
  const { time, distinct_id, $insert_id, token: _token, ...custom } = properties;
  return {
    event,
    distinct_id,
    time_ms: time === undefined ? expect.any(Number) : toMs(time instanceof Date ? time.getTime() : (time as number)),
    insert_id: $insert_id ?? expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/),
    properties: { ...custom, ...gatewayAdds },
  };
}

/**
 * A deep copy to hand the SDK (it writes token and time into the objects it is given). Not
 * structuredClone: its Dates come from another realm than jest's, and the SDK's `instanceof Date` refuses them.
 */
export function copyForSdk<T>(value: T): T {
  if (value instanceof Date) return new Date(value.getTime()) as T;
  if (Array.isArray(value)) return value.map(copyForSdk) as T;
  if (typeof value === 'object' && value !== null)
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, copyForSdk(v)])) as T;
  return value;
}

export const sortedByEvent = <T extends { event: string }>(events: T[]) =>
  [...events].sort((a, b) => (a.event < b.event ? -1 : a.event > b.event ? 1 : 0));

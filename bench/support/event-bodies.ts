/**
 * Request bodies as a busy server-side client sends them: 2000-event JSON arrays of 20-property
 * events, about 360 bytes each as sent (DESIGN.md's measurements use the same shape). Bodies are
 * built once as templates; each request only splices in its own insert-id prefix, so every event
 * stored is distinct and the load generator spends almost nothing per request.
 */

export const EVENTS_PER_BATCH = 2000;
/** Fixed width, so every body of a template has the same length. */
const PREFIX_WIDTH = 12;
/** Stands where each request's prefix goes: allowed in an insert id, found nowhere else in a body. */
export const PLACEHOLDER = 'Z'.repeat(PREFIX_WIDTH);

const BROWSERS = ['Chrome', 'Safari', 'Firefox', 'Edge'];
const OSES = ['Mac OS X', 'Windows', 'iOS', 'Android', 'Linux'];
const CITIES = [
  ['Berlin', 'Berlin', 'DE'],
  ['San Francisco', 'California', 'US'],
  ['London', 'England', 'GB'],
  ['Paris', 'Ile-de-France', 'FR'],
  ['Bengaluru', 'Karnataka', 'IN'],
];
const EVENTS = ['Viewed Page', 'Added To Cart', 'Searched', 'Signed Up', 'Purchased'];

export interface BodyTemplate {
  /** The body split at the insert-id prefix slots. */
  parts: string[];
  /** The distinct_id of each event, in order (to find a marker's partition). */
  distinctIds: string[];
  bytes: number;
}

function event(i: number, user: number, timeMs: number): object {
  const [city, region, country] = CITIES[user % CITIES.length];
  return {
    event: EVENTS[i % EVENTS.length],
    properties: {
      time: timeMs - (i % 1000),
      distinct_id: `u-${String(user).padStart(7, '0')}`,
      $insert_id: `${PLACEHOLDER}-${i}`,
      $browser: BROWSERS[user % BROWSERS.length],
      $os: OSES[user % OSES.length],
      $city: city,
      $region: region,
      mp_country_code: country,
      $screen_width: 1920,
      $lib: 'node',
      v: 120 + (user % 12),
      path: `/p/${i % 5000}`,
      ref: 'google',
      plan: user % 3 ? 'free' : 'pro',
      price: (i % 10_000) / 100,
      items: i % 7,
      ok: user % 2 === 0,
      utm: 'mail',
      ab: i % 2 ? 'A' : 'B',
      n: i,
    },
  };
}

/** `count` templates of one batch each, over `users` distinct users. */
export function buildTemplates(count: number, users: number, timeMs: number): BodyTemplate[] {
  return Array.from({ length: count }, (_, t) => {
    const events = Array.from({ length: EVENTS_PER_BATCH }, (_, i) =>
      event(i, (t * 7919 + i * 104729) % users, timeMs),
    );
    const text = JSON.stringify(events);
    return {
      parts: text.split(PLACEHOLDER),
      distinctIds: events.map((e) => (e as { properties: { distinct_id: string } }).properties.distinct_id),
      bytes: Buffer.byteLength(text),
    };
  });
}

/** A request's prefix, unique per (run, client, request) and always PREFIX_WIDTH long: run is 4 characters. */
export function requestPrefix(run: string, client: number, sequence: number): string {
  const prefix = `${run}${client.toString(36).padStart(2, '0')}${sequence.toString(36).padStart(6, '0')}`;
  if (prefix.length !== PREFIX_WIDTH || !/^[a-z0-9]+$/.test(prefix)) throw new Error(`bad request prefix ${prefix}`);
  return prefix;
}

export function bodyOf(template: BodyTemplate, prefix: string): string {
  return template.parts.join(prefix);
}

/** Splits any text built from a template (e.g. its stored rows) at the same prefix slots. */
export function splitAtPrefix(text: string): string[] {
  return text.split(PLACEHOLDER);
}

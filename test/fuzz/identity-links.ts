import { createHash } from 'node:crypto';

/** A UUID v4 drawn from a number: the same draw gives the same anonymous id (a seed replays a run). */
function uuidFrom(n: number, salt: string): string {
  const hex = createHash('sha256').update(`${salt}:${n}`).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-${'89ab'[n % 4]}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/**
 * Events that try to join two people who are already identified, each of which every identity rule
 * must refuse (docs/identity.md): `$identify` whose `$anon_id` is another person's id (not a UUID v4);
 * a shared device (one anonymous UUID identified as one person, later as another); `$merge` through
 * `/track` (only `/import` with the secret may merge); and, for Simplified projects, one `$device_id`
 * seen with two `$user_id`s. The good events of `a` and `b` must keep being theirs in the export.
 */
export function fusionAttempts(
  a: string,
  b: string,
  n: number,
  salt: string,
  token: string,
  nowSeconds: number,
): string[] {
  const device = uuidFrom(n, salt);
  const insertId = (i: number) => `${salt}L-${n.toString(36)}-${i}`;
  const event = (name: string, properties: Record<string, unknown>, i: number) =>
    JSON.stringify({
      event: name,
      properties: { token, time: nowSeconds - 4 + i, $insert_id: insertId(i), ...properties },
    });
  return [
    event('$identify', { distinct_id: b, $anon_id: a, $identified_id: b }, 0),
    event('$identify', { distinct_id: a, $anon_id: device, $identified_id: a }, 1),
    event('$identify', { distinct_id: b, $anon_id: device, $identified_id: b }, 2),
    event('$merge', { distinct_id: a, $distinct_ids: [a, b] }, 3),
    event('fuzz_link', { $user_id: a, $device_id: device }, 4),
    event('fuzz_link', { $user_id: b, $device_id: device }, 5),
  ];
}

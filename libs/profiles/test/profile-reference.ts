import fc from 'fast-check';

/**
 * The documented semantics of user profile updates, written as plainly as possible and apart from
 * the real code, to check the stored profiles against. It takes records as the SDKs send them
 * (always with `$time`, so the result does not depend on when the gateway received them).
 */
export interface SentRecord {
  $distinct_id: string;
  $time: number;
  $ignore_time?: boolean;
  $set?: Record<string, unknown>;
  $set_once?: Record<string, unknown>;
  $add?: Record<string, number>;
  $append?: Record<string, unknown>;
  $union?: Record<string, unknown[]>;
  $remove?: Record<string, unknown>;
  $unset?: string[];
  $delete?: string;
}

type Profile = { properties: Record<string, unknown>; lastWrite: Record<string, number> };

const timestamp = (seconds: number) => new Date(seconds * 1000).toISOString().slice(0, 19);

/** Same JSON, whatever the order of object keys. */
function sameJson(a: unknown, b: unknown): boolean {
  const canonical = (value: unknown): unknown =>
    Array.isArray(value)
      ? value.map(canonical)
      : value !== null && typeof value === 'object'
        ? Object.fromEntries(
            Object.keys(value)
              .sort()
              .map((k) => [k, canonical((value as Record<string, unknown>)[k])]),
          )
        : value;
  return JSON.stringify(canonical(a)) === JSON.stringify(canonical(b));
}

export class ReferenceProfiles {
  private readonly profiles = new Map<string, Profile>();

  /** Applies one record; false when it cannot apply (the real store refuses it too). */
  apply(record: SentRecord): boolean {
    const id = record.$distinct_id;
    const time = record.$time;
    if (record.$delete !== undefined) {
      this.profiles.delete(id);
      return true;
    }
    const existing = this.profiles.get(id);
    if (!existing && (record.$unset || record.$remove)) return true;
    const profile: Profile = existing
      ? { properties: { ...existing.properties }, lastWrite: { ...existing.lastWrite } }
      : { properties: { $created: timestamp(time) }, lastWrite: {} };
    const p = profile.properties;
    const written = (name: string) =>
      (profile.lastWrite[name] = Math.max(profile.lastWrite[name] ?? time * 1000, time * 1000));
    const olderThanLastWrite = (name: string) => (profile.lastWrite[name] ?? -Infinity) > time * 1000;

    if ((record.$set || record.$add || record.$append) && !record.$ignore_time) {
      if (typeof p.$last_seen !== 'string' || p.$last_seen < timestamp(time)) p.$last_seen = timestamp(time);
    }
    for (const [name, value] of Object.entries(record.$set ?? {})) {
      if (olderThanLastWrite(name)) continue;
      p[name] = value;
      written(name);
    }
    for (const [name, value] of Object.entries(record.$set_once ?? {})) {
      if (name in p) continue;
      p[name] = value;
      written(name);
    }
    for (const name of record.$unset ?? []) {
      if (olderThanLastWrite(name)) continue;
      delete p[name];
      written(name);
    }
    for (const [name, by] of Object.entries(record.$add ?? {})) {
      if (name in p && typeof p[name] !== 'number') return false;
      p[name] = ((p[name] as number | undefined) ?? 0) + by;
      written(name);
    }
    const list = (name: string) => {
      if (name in p && !Array.isArray(p[name])) throw new Error('not a list');
      return (p[name] as unknown[] | undefined) ?? [];
    };
    try {
      for (const [name, value] of Object.entries(record.$append ?? {})) {
        p[name] = [...list(name), value];
        written(name);
      }
      for (const [name, values] of Object.entries(record.$union ?? {})) {
        const result = [...list(name)];
        for (const value of values) if (!result.some((item) => sameJson(item, value))) result.push(value);
        p[name] = result;
        written(name);
      }
      for (const [name, value] of Object.entries(record.$remove ?? {})) {
        const current = list(name);
        if (!(name in p)) continue;
        p[name] = current.filter((item) => !sameJson(item, value));
        written(name);
      }
    } catch {
      return false;
    }
    this.profiles.set(id, profile);
    return true;
  }

  properties(id: string): Record<string, unknown> | undefined {
    return this.profiles.get(id)?.properties;
  }
}

const NAMES = ['a', 'b', 'list'];
const scalar = fc.oneof(
  fc.integer({ min: -5, max: 5 }),
  fc.constantFrom('x', 'y', 'é', '🚀'),
  fc.boolean(),
  fc.constant(null),
);
const value = fc.oneof(
  { weight: 4, arbitrary: scalar },
  fc.array(scalar, { maxLength: 3 }),
  fc.dictionary(fc.constantFrom('k', 'l'), scalar, { maxKeys: 2 }),
);
const properties = <T>(item: fc.Arbitrary<T>) =>
  fc.dictionary(fc.constantFrom(...NAMES), item, { minKeys: 1, maxKeys: 2 });

/** One operation, shaped as sent: the generated values make every operation meet every kind of stored value. */
const operation = fc.oneof(
  { weight: 3, arbitrary: properties(value).map(($set) => ({ $set })) },
  properties(value).map(($set_once) => ({ $set_once })),
  {
    weight: 2,
    arbitrary: properties(fc.oneof(fc.integer({ min: -3, max: 3 }), fc.constantFrom(0.5, 1.25))).map(($add) => ({
      $add,
    })),
  },
  { weight: 2, arbitrary: properties(value).map(($append) => ({ $append })) },
  { weight: 2, arbitrary: properties(fc.array(scalar, { maxLength: 3 })).map(($union) => ({ $union })) },
  properties(scalar).map(($remove) => ({ $remove })),
  fc.subarray(NAMES, { minLength: 1 }).map(($unset) => ({ $unset })),
  fc.constant({ $delete: '' }),
);

const BASE_SECONDS = 1_700_000_000;

/** Records for a few profiles, with `$time`s close together and out of order. */
export const recordSequence = (profiles: number) =>
  fc.array(
    fc.record({
      profile: fc.integer({ min: 0, max: profiles - 1 }),
      operation,
      second: fc.integer({ min: 0, max: 20 }),
      ignoreTime: fc.boolean(),
    }),
    { minLength: 1, maxLength: 40 },
  );

export function toRecords(
  prefix: string,
  generated: { profile: number; operation: object; second: number; ignoreTime: boolean }[],
): SentRecord[] {
  return generated.map(({ profile, operation: op, second, ignoreTime }) => ({
    $distinct_id: `${prefix}-${profile}`,
    $time: BASE_SECONDS + second,
    ...(ignoreTime ? { $ignore_time: true } : {}),
    ...op,
  }));
}

/** Splits records into consecutive requests of the given sizes. */
export function requests<T>(records: T[], sizes: number[]): T[][] {
  const result: T[][] = [];
  let start = 0;
  for (const size of sizes) {
    if (start >= records.length) break;
    result.push(records.slice(start, start + size));
    start += size;
  }
  if (start < records.length) result.push(records.slice(start));
  return result;
}

import { JsonObject } from '@analytics/expression';
import { TimeZone } from '../../src/time/time-zone';
import { DAY_MS, parseDay } from '../../src/time/utc-days';
import { Random } from './random';
import { StoredEvent } from './stored-events';

export interface EventPlan {
  fromDay: number;
  toDay: number;
  users: number;
  maxEventsPerUser: number;
  names: readonly string[];
  /** Times this far after another event are likely, to land on window edges. */
  windowMs?: number;
  /** Whose midnights (and the early hours daylight-saving changes happen in) times cluster around; UTC by default. */
  zone?: TimeZone;
}

/** Days around month and week boundaries and daylight-saving changes, so bucket edges are exercised. */
export const PLAN_DAYS = [
  '2024-01-27',
  '2024-01-29',
  '2024-02-26',
  '2024-02-28',
  '2024-03-30',
  '2023-12-30',
  '2024-10-26',
  '2024-11-02',
].map((d) => parseDay(d)!);

const PLANS: readonly (string | undefined)[] = ['free', 'pro', 'team', undefined];
const NUMBERS: readonly (number | string | boolean | undefined)[] = [1, 2, 2.5, 10, -3, '3', true, undefined];

function properties(random: Random): JsonObject {
  const plan = random.pick(PLANS);
  const n = random.pick(NUMBERS);
  return { ...(plan !== undefined && { plan }), ...(n !== undefined && { n }) };
}

/** A time near something interesting: a midnight, another event (a tie), or a window edge after one. */
function nextTime(random: Random, plan: EventPlan, previous: number[]): number {
  const choice = random.int(0, 9);
  if (previous.length && choice <= 2) return random.pick(previous);
  if (previous.length && plan.windowMs && choice === 3)
    return random.pick(previous) + plan.windowMs + random.pick([0, 0, 1000, -1, 1]);
  if (previous.length && choice <= 5)
    return random.pick(previous) + random.pick([1, 1000, 60_000, 3_600_000, 20 * 3_600_000]);
  const day = random.int(plan.fromDay - 1, plan.toDay + 1);
  const hour = 3_600_000;
  const since = random.pick([0, 0, -1, 1, 1000, 2 * hour, 3 * hour - 1, random.int(0, DAY_MS - 1)]);
  return (plan.zone ?? TimeZone.UTC).dayStartMs(day) + since;
}

/** Users' events with ties, repeats and duplicates (same dedup key: an exact copy, or a later one with other properties). */
export function generateEvents(random: Random, plan: EventPlan): StoredEvent[] {
  const events: StoredEvent[] = [];
  let processed = 1_800_000_000_000;
  for (let user = 0; user < plan.users; user++) {
    const times: number[] = [];
    const count = random.int(0, plan.maxEventsPerUser);
    for (let i = 0; i < count; i++) {
      const timeMs = nextTime(random, plan, times);
      times.push(timeMs);
      const event: StoredEvent = {
        event: random.pick(plan.names),
        timeMs,
        distinctId: `u${user}`,
        insertId: `i${user}-${i}`,
        properties: properties(random),
        processedMs: processed++,
      };
      events.push(event);
      if (random.chance(0.08)) events.push({ ...event, processedMs: processed++ });
      if (random.chance(0.08)) events.push({ ...event, properties: properties(random), processedMs: processed++ });
    }
  }
  return events;
}

/** Insert order differs from time order, across several inserts. */
export function arrivalBatches<T>(random: Random, items: T[], batches = 3): T[][] {
  const shuffled = random.shuffle([...items]);
  const out: T[][] = Array.from({ length: batches }, () => []);
  shuffled.forEach((item) => out[random.int(0, batches - 1)].push(item));
  return out;
}

/**
 * Profiles for some of a scenario's ids (`u0`…, and the `user-N` and `alias-N` ids links bring):
 * only the profile of a person's canonical id is theirs, so the others are there to be ignored.
 */
export function generateProfiles(random: Random, users: number): Map<string, JsonObject> {
  const ids = [
    ...Array.from({ length: users }, (_, i) => `u${i}`),
    ...[0, 1, 2].flatMap((i) => [`user-${i}`, `alias-${i}`]),
  ];
  const profiles = new Map<string, JsonObject>();
  for (const id of ids) {
    if (random.chance(0.3)) continue;
    const tier = random.pick(['gold', 'silver', undefined]);
    const seats = random.pick([1, 3, '4', undefined]);
    profiles.set(id, { ...(tier !== undefined && { tier }), ...(seats !== undefined && { seats }) });
  }
  return profiles;
}

/** The events as a report joining profiles reads them: each with its (canonical) person's profile. */
export function withProfiles<T extends { distinctId: string }>(
  events: readonly T[],
  profiles: ReadonlyMap<string, JsonObject>,
): T[] {
  return events.map((event) => ({ ...event, user: profiles.get(event.distinctId) }));
}

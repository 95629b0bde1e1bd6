import { EventExpression, parseEventExpression } from '../../src/expressions/query-expressions';
import { DateBuckets } from '../../src/time/buckets';
import { TimeZone } from '../../src/time/time-zone';
import { Random } from './random';

/** Building blocks the generated scenarios draw from. */
export const EVENT_NAMES = ['A', 'B', 'C', 'D'] as const;

const WHERES = [
  'properties["plan"] == "pro"',
  'properties["n"] > 1',
  'defined(properties["plan"])',
  'not (properties["plan"] == "free")',
  'properties["n"] == 2 or properties["plan"] == "team"',
];

const SEGMENTS = ['properties["plan"]', 'properties["n"]'];

/** Over the profile of the event's person (`generateProfiles`), in the reports that join profiles. */
const USER_WHERES = [
  'user["tier"] == "gold"',
  'defined(user["tier"])',
  'user["seats"] > 2 or properties["plan"] == "pro"',
];
const USER_SEGMENTS = ['user["tier"]', 'user["seats"]'];

export const BUCKETS: readonly DateBuckets[] = [
  { kind: 'days', days: 1 },
  { kind: 'days', days: 2 },
  { kind: 'days', days: 3 },
  { kind: 'week' },
  { kind: 'month' },
];

export function maybeWhere(random: Random, probability: number, field = 'where'): EventExpression | undefined {
  return random.chance(probability) ? parseEventExpression(field, random.pick(WHERES)) : undefined;
}

export function maybeSegment(random: Random, probability: number): EventExpression | undefined {
  return random.chance(probability) ? parseEventExpression('on', random.pick(SEGMENTS)) : undefined;
}

/** A `where` or `on` that reads the event's properties, or (one time in three) its person's profile. */
export function maybeWhereOrUser(random: Random, probability: number, field = 'where'): EventExpression | undefined {
  if (!random.chance(probability)) return undefined;
  return parseEventExpression(field, random.pick(random.chance(1 / 3) ? USER_WHERES : WHERES));
}

export function maybeSegmentOrUser(random: Random, probability: number): EventExpression | undefined {
  if (!random.chance(probability)) return undefined;
  return parseEventExpression('on', random.pick(random.chance(1 / 3) ? USER_SEGMENTS : SEGMENTS));
}

/**
 * Half the scenarios run in UTC, the others in a zone with daylight saving on either side of the
 * Atlantic (Berlin springs forward on 2024-03-31, New York falls back on 2024-11-03, both in
 * PLAN_DAYS) or one with a half-hour offset.
 */
const ZONES = ['Europe/Berlin', 'America/New_York', 'Asia/Kolkata'].map((name) => TimeZone.of(name));

export function pickZone(random: Random): TimeZone {
  return random.chance(0.5) ? TimeZone.UTC : random.pick(ZONES);
}

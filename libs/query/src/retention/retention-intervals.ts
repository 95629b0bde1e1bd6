import { DateBuckets } from '../time/buckets';
import { TimeZone } from '../time/time-zone';
import { addMonths, DAY_MS } from '../time/utc-days';

/**
 * Interval i after a birth is [birth + i·len, birth + (i+1)·len) on the project's clocks (both
 * arguments are wall times, time-zone.ts): len is N days, 7 days, or a calendar month. A return in
 * the hour the clocks repeat may read earlier than its birth: it is in interval 0.
 */
export function intervalIndex(birthWall: number, wall: number, buckets: DateBuckets): number {
  if (buckets.kind !== 'month') return Math.max(0, Math.floor((wall - birthWall) / fixedIntervalMs(buckets)));
  const birth = new Date(birthWall);
  const at = new Date(wall);
  const months = at.getUTCFullYear() * 12 + at.getUTCMonth() - (birth.getUTCFullYear() * 12 + birth.getUTCMonth());
  return Math.max(0, addMonths(birthWall, months) > wall ? months - 1 : months);
}

export function fixedIntervalMs(buckets: Exclude<DateBuckets, { kind: 'month' }>): number {
  return (buckets.kind === 'week' ? 7 : buckets.days) * DAY_MS;
}

/**
 * An upper bound of where the last reported interval of a birth before `toEndMs` ends (a day more
 * outside UTC, for the offset changes the intervals may span).
 */
export function returnsEndMs(toEndMs: number, buckets: DateBuckets, intervalCount: number, zone: TimeZone): number {
  const intervals = intervalCount + 1;
  const end =
    buckets.kind === 'month' ? toEndMs + intervals * 31 * DAY_MS : toEndMs + intervals * fixedIntervalMs(buckets);
  return zone.isUtc ? end : end + DAY_MS;
}

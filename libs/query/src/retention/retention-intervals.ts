import { DateBuckets } from '../time/buckets';
import { addMonths, DAY_MS } from '../time/utc-days';

/** Interval i after a birth is [birth + i·len, birth + (i+1)·len): len is N days, 7 days, or a calendar month. */
export function intervalIndex(birthMs: number, ms: number, buckets: DateBuckets): number {
  if (buckets.kind !== 'month') return Math.floor((ms - birthMs) / fixedIntervalMs(buckets));
  const birth = new Date(birthMs);
  const at = new Date(ms);
  const months = at.getUTCFullYear() * 12 + at.getUTCMonth() - (birth.getUTCFullYear() * 12 + birth.getUTCMonth());
  return addMonths(birthMs, months) > ms ? months - 1 : months;
}

export function fixedIntervalMs(buckets: Exclude<DateBuckets, { kind: 'month' }>): number {
  return (buckets.kind === 'week' ? 7 : buckets.days) * DAY_MS;
}

/** An upper bound of where the last reported interval of a birth before `toEndMs` ends. */
export function returnsEndMs(toEndMs: number, buckets: DateBuckets, intervalCount: number): number {
  const intervals = intervalCount + 1;
  return buckets.kind === 'month' ? toEndMs + intervals * 31 * DAY_MS : toEndMs + intervals * fixedIntervalMs(buckets);
}

import { firstOfMonth, formatDay, mondayOf } from './utc-days';

/**
 * How funnels and retention cut [from_date, to_date] into date buckets: `interval` N gives N-day
 * buckets counted from from_date (the last one cut at to_date); `week` calendar weeks from Monday,
 * keyed by that Monday even when it lies before from_date; `month` calendar months keyed by the 1st.
 */
export type DateBuckets = { kind: 'days'; days: number } | { kind: 'week' } | { kind: 'month' };

/** The first day (the key) of the bucket holding `day`. */
export function bucketOf(day: number, buckets: DateBuckets, fromDay: number): number {
  switch (buckets.kind) {
    case 'days':
      return fromDay + Math.floor((day - fromDay) / buckets.days) * buckets.days;
    case 'week':
      return mondayOf(day);
    case 'month':
      return firstOfMonth(day);
  }
}

/** Every bucket key of the range, in order, empty buckets too. */
export function bucketKeys(fromDay: number, toDay: number, buckets: DateBuckets): number[] {
  const keys: number[] = [];
  for (let day = fromDay; day <= toDay; day++) {
    const key = bucketOf(day, buckets, fromDay);
    if (keys[keys.length - 1] !== key) keys.push(key);
  }
  return keys;
}

export function bucketLabels(fromDay: number, toDay: number, buckets: DateBuckets): string[] {
  return bucketKeys(fromDay, toDay, buckets).map(formatDay);
}

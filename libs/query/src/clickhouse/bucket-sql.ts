import { DateBuckets } from '../time/buckets';

/**
 * The bucket key (a civil day number) of a wall time (`wallMsSql`) in SQL: the twin of `bucketOf`.
 * `fromDay` and `days` are bound parameters named here.
 */
export function bucketDaySql(ms: string, buckets: DateBuckets): string {
  const day = `intDiv(${ms}, 86400000)`;
  switch (buckets.kind) {
    case 'days':
      return `({bucketFromDay:Int64} + intDiv(${day} - {bucketFromDay:Int64}, {bucketDays:Int64}) * {bucketDays:Int64})`;
    case 'week':
      return `(${day} - (${day} + 3) % 7)`;
    case 'month':
      return `toInt64(toStartOfMonth(fromUnixTimestamp64Milli(${ms}, 'UTC')))`;
  }
}

export function bucketParams(buckets: DateBuckets, fromDay: number): Record<string, number> {
  return buckets.kind === 'days' ? { bucketFromDay: fromDay, bucketDays: buckets.days } : {};
}

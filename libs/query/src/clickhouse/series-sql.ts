import { SeriesUnit } from '../time/series';
import { DAY_MS, HOUR_MS } from '../time/utc-days';

/** The period key of a wall time (`wallMsSql`), a wall time too: the twin of `seriesKeyOf`. */
export function seriesKeySql(ms: string, unit: SeriesUnit): string {
  const day = `intDiv(${ms}, ${DAY_MS})`;
  switch (unit) {
    case 'hour':
      return `(intDiv(${ms}, ${HOUR_MS}) * ${HOUR_MS})`;
    case 'day':
      return `(${day} * ${DAY_MS})`;
    case 'week':
      return `((${day} - (${day} + 3) % 7) * ${DAY_MS})`;
    case 'month':
      return `(toInt64(toStartOfMonth(fromUnixTimestamp64Milli(${ms}, 'UTC'))) * ${DAY_MS})`;
  }
}

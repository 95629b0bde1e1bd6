import { TimeZone } from './time-zone';
import { DAY_MS, firstOfMonth, HOUR_MS, mondayOf } from './utc-days';

/** The time series units of segmentation and insights: each key is its period's start. */
export const SERIES_UNITS = ['hour', 'day', 'week', 'month'] as const;
export type SeriesUnit = (typeof SERIES_UNITS)[number];

/** The start of the period of `unit` holding the wall time `ms` (time-zone.ts), as a wall time: the period's key. */
export function seriesKeyOf(ms: number, unit: SeriesUnit): number {
  const day = Math.floor(ms / DAY_MS);
  switch (unit) {
    case 'hour':
      return Math.floor(ms / HOUR_MS) * HOUR_MS;
    case 'day':
      return day * DAY_MS;
    case 'week':
      return mondayOf(day) * DAY_MS;
    case 'month':
      return firstOfMonth(day) * DAY_MS;
  }
}

/**
 * Every key of the range [fromDay, toDay], in order. Days are the zone's, once each whatever their
 * length; an hour the clocks skip (spring forward) is no key, one they repeat (fall back) one key.
 */
export function seriesKeys(fromDay: number, toDay: number, unit: SeriesUnit, zone: TimeZone = TimeZone.UTC): number[] {
  const keys: number[] = [];
  const step = unit === 'hour' ? HOUR_MS : DAY_MS;
  for (let ms = fromDay * DAY_MS; ms < (toDay + 1) * DAY_MS; ms += step) {
    const key = seriesKeyOf(ms, unit);
    if (unit === 'hour' && zone.wallMs(zone.instantOf(key)) >= key + HOUR_MS) continue;
    if (keys[keys.length - 1] !== key) keys.push(key);
  }
  return keys;
}

/** The segmentation API's keys, on the zone's clocks: `YYYY-MM-DD`, hours as `YYYY-MM-DD HH:00:00`. */
export function segmentationKey(ms: number, unit: SeriesUnit): string {
  const iso = new Date(ms).toISOString();
  return unit === 'hour' ? `${iso.slice(0, 10)} ${iso.slice(11, 13)}:00:00` : iso.slice(0, 10);
}

/**
 * The insights API's keys: ISO 8601 with the zone's offset at the period's first instant, as in
 * `2024-01-01T00:00:00+00:00` (or `…T01:00:00-03:00` for a day whose midnight the clocks skip).
 */
export function insightsKey(key: number, zone: TimeZone = TimeZone.UTC): string {
  return zone.isoText(zone.instantOf(key));
}

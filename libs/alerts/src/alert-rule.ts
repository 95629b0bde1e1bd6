import { DAY_MS, TimeZone } from '@analytics/query';

/** What an alert watches for, and how often it looks (docs/alerts.md). Pure: no I/O here. */

export const ALERT_RULES = ['above', 'below', 'changed_by_percent'] as const;
export type AlertRule = (typeof ALERT_RULES)[number];
export const ALERT_CADENCES = ['hourly', 'daily'] as const;
export type AlertCadence = (typeof ALERT_CADENCES)[number];
export type ReportUnit = 'hour' | 'day' | 'week' | 'month';

/** The value of one complete period of a report, with the period before it when the report has one. */
export interface PeriodValue {
  /** The period's start as the insights API keys it (`2026-11-28T00:00:00+00:00`). */
  period: string;
  value: number;
  previous?: number;
}

/**
 * The end (exclusive, epoch ms) of the period of `unit` starting at `startMs`, on the clocks of the
 * project's time zone (the report's periods are its days): a day of a daylight-saving change lasts
 * 23 or 25 hours, and a month ends at the zone's midnight, not UTC's.
 */
export function periodEnd(startMs: number, unit: ReportUnit, zone: TimeZone = TimeZone.UTC): number {
  if (unit === 'hour') return startMs + 3_600_000;
  const day = Math.floor(zone.wallMs(startMs) / DAY_MS);
  if (unit === 'day') return zone.dayStartMs(day + 1);
  if (unit === 'week') return zone.dayStartMs(day + 7);
  const start = new Date(day * DAY_MS);
  return zone.dayStartMs(Date.UTC(start.getUTCFullYear(), start.getUTCMonth() + 1, 1) / DAY_MS);
}

/**
 * The latest period of a series that has ended by `nowMs` (the current one is still counting, and
 * would fire `below` every morning), with the value of the period before it.
 */
export function latestCompletePeriod(
  line: Record<string, number>,
  unit: ReportUnit,
  nowMs: number,
  zone: TimeZone = TimeZone.UTC,
): PeriodValue | undefined {
  const keys = Object.keys(line).sort((a, b) => Date.parse(a) - Date.parse(b));
  for (let i = keys.length - 1; i >= 0; i--) {
    if (periodEnd(Date.parse(keys[i]), unit, zone) > nowMs) continue;
    return { period: keys[i], value: line[keys[i]], ...(i > 0 ? { previous: line[keys[i - 1]] } : {}) };
  }
  return undefined;
}

/**
 * Whether the rule fires. `changed_by_percent` compares with the previous period in either direction
 * (strictly more than N %); from a previous 0 any other value is an infinite change, and with no
 * previous period in the report there is nothing to compare, so it does not fire.
 */
export function ruleFires(rule: AlertRule, threshold: number, { value, previous }: PeriodValue): boolean {
  switch (rule) {
    case 'above':
      return value > threshold;
    case 'below':
      return value < threshold;
    case 'changed_by_percent':
      if (previous === undefined) return false;
      if (previous === 0) return value !== 0;
      return (Math.abs(value - previous) / Math.abs(previous)) * 100 > threshold;
  }
}

/** The least time between two checks of one alert: a little under its cadence, so an hourly sweep never skips one. */
export const CADENCE_MS: Readonly<Record<AlertCadence, number>> = {
  hourly: 55 * 60_000,
  daily: 23 * 3_600_000 + 55 * 60_000,
};

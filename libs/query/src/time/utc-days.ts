/**
 * Calendar arithmetic on UTC days, numbered from 1970-01-01 (day 0). Reports apply it to the wall
 * times of their project's zone (time-zone.ts), whose civil days it then counts.
 */

export const DAY_MS = 86_400_000;
export const HOUR_MS = 3_600_000;

const DAY_TEXT = /^(\d{4})-(\d{2})-(\d{2})$/;

/** The day number of `YYYY-MM-DD`, or undefined when it is not a real calendar date. */
export function parseDay(text: string): number | undefined {
  const match = DAY_TEXT.exec(text);
  if (!match) return undefined;
  const ms = Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3]));
  if (Number.isNaN(ms) || formatDay(ms / DAY_MS) !== text) return undefined;
  return ms / DAY_MS;
}

export function formatDay(day: number): string {
  return new Date(day * DAY_MS).toISOString().slice(0, 10);
}

export function dayOf(ms: number): number {
  return Math.floor(ms / DAY_MS);
}

/** The Monday starting the ISO week of `day` (1970-01-01 was a Thursday). */
export function mondayOf(day: number): number {
  return day - ((((day + 3) % 7) + 7) % 7);
}

export function firstOfMonth(day: number): number {
  const date = new Date(day * DAY_MS);
  return Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), 1) / DAY_MS;
}

/**
 * `ms` plus whole calendar months, the day of month clamped to the target month's length
 * (Jan 31 + 1 month = Feb 28/29), as ClickHouse's addMonths does.
 */
export function addMonths(ms: number, months: number): number {
  const date = new Date(ms);
  const year = date.getUTCFullYear();
  const month = date.getUTCMonth() + months;
  const lastDay = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  const timeOfDay = ms - Date.UTC(year, date.getUTCMonth(), date.getUTCDate());
  return Date.UTC(year, month, Math.min(date.getUTCDate(), lastDay)) + timeOfDay;
}

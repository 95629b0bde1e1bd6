import { DateTime } from './value';

/** The range of `DateTime64(3)` that both backends format and parse alike: 1900-01-01 to 2299-12-31. */
export const MIN_DATETIME_MS = -2_208_988_800_000;
export const END_DATETIME_MS = 10_413_792_000_000;

/**
 * The ISO 8601 forms `datetime("…")` accepts (UTC unless an offset is given); the SQL backend uses
 * the same pattern, so both refuse the same strings. Fractions beyond milliseconds are truncated.
 */
export const ISO_DATETIME_PATTERN =
  '^((?:19|2[0-2])[0-9]{2})-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])' +
  '(?:[T ]([01][0-9]|2[0-3]):([0-5][0-9])(?::([0-5][0-9])(?:[.]([0-9]{1,9}))?)?(Z|[+-](?:[01][0-9]|2[0-3]):[0-5][0-9])?)?$';

const ISO_DATETIME = new RegExp(ISO_DATETIME_PATTERN);
const MS_PER_DAY = 86_400_000;

export function dateTimeFromMs(ms: number): DateTime | undefined {
  return ms >= MIN_DATETIME_MS && ms < END_DATETIME_MS ? new DateTime(ms) : undefined;
}

/** `datetime(n)`: n is unix seconds; sub-millisecond digits are floored away. */
export function dateTimeFromUnixSeconds(seconds: number): DateTime | undefined {
  return dateTimeFromMs(Math.floor(seconds * 1000));
}

export function dateTimeFromIso(text: string): DateTime | undefined {
  const match = ISO_DATETIME.exec(text);
  if (!match) return undefined;
  const [, year, month, day, hour = '0', minute = '0', second = '0', fraction = '', offset = 'Z'] = match;
  if (Number(day) > daysInMonth(Number(year), Number(month))) return undefined;
  const ms =
    daysSinceEpoch(Number(year), Number(month), Number(day)) * MS_PER_DAY +
    ((Number(hour) * 60 + Number(minute)) * 60 + Number(second)) * 1000 +
    Number(fraction.padEnd(3, '0').slice(0, 3)) -
    offsetMinutes(offset) * 60_000;
  return dateTimeFromMs(ms);
}

/** `string(datetime)`: Mixpanel's date format, `YYYY-MM-DDTHH:MM:SS` in UTC, seconds floored. */
export function formatDateTime(value: DateTime): string {
  return new Date(value.ms).toISOString().slice(0, 19);
}

function offsetMinutes(offset: string): number {
  if (offset === 'Z') return 0;
  const minutes = Number(offset.slice(1, 3)) * 60 + Number(offset.slice(4, 6));
  return offset.startsWith('-') ? -minutes : minutes;
}

function isLeapYear(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

function daysInMonth(year: number, month: number): number {
  if (month === 2) return isLeapYear(year) ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

/** Days from 1970-01-01 to a proleptic Gregorian date (Howard Hinnant's days_from_civil). */
function daysSinceEpoch(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yearOfEra = y - era * 400;
  const dayOfYear = Math.floor((153 * (month + (month > 2 ? -3 : 9)) + 2) / 5) + day - 1;
  const dayOfEra = yearOfEra * 365 + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100) + dayOfYear;
  return era * 146_097 + dayOfEra - 719_468;
}

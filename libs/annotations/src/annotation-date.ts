import { AnnotationsError, AnnotationsErrorCode } from './annotations-error';

/** `YYYY-MM-DD HH:mm:ss`, or a bare `YYYY-MM-DD` where a day will do. Read as UTC. */
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})(?: (\d{2}):(\d{2}):(\d{2}))?$/;
const DAY_MS = 86_400_000;

interface DateParts {
  at: Date;
  hasTime: boolean;
}

function parseParts(text: string, field: string): DateParts {
  const match = DATE_TIME.exec(text);
  if (match) {
    const [year, month, day, hour, minute, second] = match.slice(1).map((part) => Number(part ?? 0));
    const at = new Date(Date.UTC(year, month - 1, day, hour, minute, second));
    // Date.UTC rolls 2024-02-30 over into March: a real calendar date reads back the same.
    const real =
      at.getUTCFullYear() === year &&
      at.getUTCMonth() === month - 1 &&
      at.getUTCDate() === day &&
      hour < 24 &&
      minute < 60 &&
      second < 60;
    if (real && year >= 1000) return { at, hasTime: match[4] !== undefined };
  }
  throw new AnnotationsError(
    AnnotationsErrorCode.InvalidDate,
    `${field} must be a date as YYYY-MM-DD HH:mm:ss or YYYY-MM-DD (UTC), got "${text}"`,
  );
}

/** An annotation's date; a bare day means its midnight. */
export function parseAnnotationDate(text: string, field = 'date'): Date {
  return parseParts(text, field).at;
}

/**
 * The inclusive instants a list covers; a bare `toDate` day includes the whole day. `names` are the
 * parameters' names in errors (the legacy path calls them from_date and to_date).
 */
export function parseDateRange(
  fromDate: string | undefined,
  toDate: string | undefined,
  names: readonly [string, string] = ['fromDate', 'toDate'],
): { from?: Date; to?: Date } {
  const from = fromDate === undefined ? undefined : parseAnnotationDate(fromDate, names[0]);
  const to = toDate === undefined ? undefined : endOf(parseParts(toDate, names[1]));
  if (from && to && from > to)
    throw new AnnotationsError(AnnotationsErrorCode.InvalidRange, `${names[0]} is after ${names[1]}`);
  return { from, to };
}

function endOf({ at, hasTime }: DateParts): Date {
  return hasTime ? at : new Date(at.getTime() + DAY_MS - 1000);
}

/** The API's date format, `YYYY-MM-DD HH:mm:ss` in UTC. */
export function formatAnnotationDate(at: Date): string {
  return at.toISOString().slice(0, 19).replace('T', ' ');
}

import { UsageError, UsageErrorCode } from './usage-error';

const DAY_MS = 86_400_000;
const DAY_TEXT = /^\d{4}-\d{2}-\d{2}$/;

/** Days listed in `per_day` when the caller names no range: the last 90, today included. */
export const DEFAULT_USAGE_DAYS = 90;
/** The widest `per_day` range a caller may ask for, in days, both ends included. */
export const MAX_USAGE_DAYS = 366;

/** The inclusive UTC days `per_day` lists, as `YYYY-MM-DD`. */
export interface UsageRange {
  from: string;
  to: string;
}

const dayText = (ms: number) => new Date(ms).toISOString().slice(0, 10);

function dayMs(text: string, name: string): number {
  const ms = Date.parse(`${text}T00:00:00Z`);
  if (!DAY_TEXT.test(text) || Number.isNaN(ms) || dayText(ms) !== text) {
    throw new UsageError(UsageErrorCode.InvalidDate, `${name} must be a date as yyyy-mm-dd, got "${text}"`);
  }
  return ms;
}

/** A query parameter as given once: empty means absent; given twice (an array) is refused. */
function parameter(value: unknown, name: string): string | undefined {
  if (value === undefined || value === '') return undefined;
  if (typeof value !== 'string') throw new UsageError(UsageErrorCode.InvalidDate, `${name} must be given once`);
  return value;
}

/**
 * `from_date`/`to_date` as the query API reads them (empty = absent). Without them, the last
 * {@link DEFAULT_USAGE_DAYS} days up to `today`; with one, the other end follows from the default span.
 */
export function parseUsageRange(fromText: unknown, toText: unknown, now: Date): UsageRange {
  const fromDate = parameter(fromText, 'from_date');
  const toDate = parameter(toText, 'to_date');
  const span = (DEFAULT_USAGE_DAYS - 1) * DAY_MS;
  const to = toDate ? dayMs(toDate, 'to_date') : fromDate ? undefined : dayMs(dayText(now.getTime()), 'today');
  const from = fromDate ? dayMs(fromDate, 'from_date') : to! - span;
  const end = to ?? from + span;
  if (from > end) throw new UsageError(UsageErrorCode.InvalidRange, `from_date ${fromDate} is after to_date ${toDate}`);
  const days = (end - from) / DAY_MS + 1;
  if (days > MAX_USAGE_DAYS) {
    throw new UsageError(
      UsageErrorCode.InvalidRange,
      `from_date to to_date spans ${days} days; at most ${MAX_USAGE_DAYS} are listed per request`,
    );
  }
  return { from: dayText(from), to: dayText(end) };
}

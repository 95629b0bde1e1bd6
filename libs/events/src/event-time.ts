const MS_PER_SECOND = 1000;
const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;
/** 1971-01-01T00:00:00Z: earlier times are refused, as by the real API. */
export const EARLIEST_EVENT_TIME_MS = 31_536_000_000;
/**
 * Numbers from here on are milliseconds (13 digits today), fractional ones too (`1715000000000.5`);
 * below, seconds. As seconds this is the year 5138, so no time in seconds reaches it.
 */
const MILLISECONDS_THRESHOLD = 100_000_000_000;

export type TimePolicy = 'import' | 'track';

export type TimeOutcome = { ok: true; timeMs: number } | { ok: false; message: string };

/** Seconds or milliseconds (integer or fractional), to whole milliseconds since the epoch. */
export function toEpochMs(value: number): number {
  return Math.round(Math.abs(value) >= MILLISECONDS_THRESHOLD ? value : value * MS_PER_SECOND);
}

/**
 * /import: before 1971 or more than an hour ahead is refused. /track: only the last 5 days are
 * accepted; a missing time is the receipt time. A time up to an hour ahead (a device whose clock is
 * fast) is kept as sent, where the real API stores the receipt time: `time` is part of the dedup
 * key, and a client's retry, received later, must land on the same stored time to collapse.
 */
export function resolveEventTime(value: unknown, nowMs: number, policy: TimePolicy): TimeOutcome {
  if (value === undefined || value === null) {
    return policy === 'track' ? { ok: true, timeMs: nowMs } : { ok: false, message: 'properties.time is required' };
  }
  if (typeof value !== 'number' || !Number.isFinite(value)) {
    return { ok: false, message: 'properties.time must be a number of seconds or milliseconds since the epoch' };
  }
  const timeMs = toEpochMs(value);
  if (timeMs < EARLIEST_EVENT_TIME_MS) return { ok: false, message: 'properties.time is before 1971-01-01' };
  if (timeMs > nowMs + HOUR_MS) return { ok: false, message: 'properties.time is more than an hour in the future' };
  if (policy === 'track' && timeMs < nowMs - 5 * DAY_MS) {
    return { ok: false, message: 'properties.time is more than 5 days old: send older events to /import' };
  }
  return { ok: true, timeMs };
}

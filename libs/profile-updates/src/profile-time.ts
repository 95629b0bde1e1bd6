import { toEpochMs } from '@analytics/events';

let lastSecond = NaN;
let lastTimestamp = '';

/** `$created` and `$last_seen` read like the real API's: `YYYY-MM-DDTHH:MM:SS`, UTC, whole seconds. */
export function profileTimestamp(ms: number): string {
  // A batch's updates mostly share their second: formatted once.
  const second = Math.floor(ms / 1000);
  if (second !== lastSecond) {
    lastSecond = second;
    lastTimestamp = new Date(second * 1000).toISOString().slice(0, 19);
  }
  return lastTimestamp;
}

/**
 * `$time` as the SDKs send it: seconds (integer or fractional) or integer milliseconds, or an ISO
 * date. A time in the future becomes now, so it cannot pin `$last_seen` or a property ahead of time.
 */
export function parseUpdateTime(value: unknown, nowMs: number): number | undefined {
  let ms: number | undefined;
  if (typeof value === 'number' && Number.isFinite(value) && value > 0) ms = toEpochMs(value);
  else if (typeof value === 'string' && /^\d{4}-\d{2}-\d{2}/.test(value)) {
    const parsed = Date.parse(/[zZ]|[+-]\d{2}:?\d{2}$/.test(value) || value.length === 10 ? value : `${value}Z`);
    if (Number.isFinite(parsed) && parsed > 0) ms = parsed;
  }
  return ms === undefined ? undefined : Math.min(ms, nowMs);
}

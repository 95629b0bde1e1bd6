import { isRetentionDays } from '@analytics/tenancy';

const DAY = 86_400_000;

/** A project's retention as the sweep reads it. */
export interface ProjectRetention {
  projectId: number;
  days: number;
}

/**
 * Where the sweep cuts a project's events: the start of today (UTC) minus its retention, so a day's
 * runs agree on the line and a reader (which hides events older than now minus the retention) never
 * shows an event the sweep already took.
 */
export function sweepLine(days: number, nowMs: number): number {
  if (!isRetentionDays(days)) throw new RangeError(`a retention is 1 to 36500 whole days, got ${days}`);
  return Math.floor(nowMs / DAY) * DAY - days * DAY;
}

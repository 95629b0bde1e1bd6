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

/** The first instant after a month of the events table's partitions (202601 → 2026-02-01). */
export function monthEnd(month: number): number {
  const year = Math.floor(month / 100);
  return Date.UTC(year, month % 100, 1);
}

/**
 * What the sweep does with one month: drop it whole when every project storing events in it has a
 * retention whose line lies past the month's end, else delete the expired rows of the projects that
 * have some there.
 */
export function monthPlan(
  month: number,
  storing: readonly number[],
  lines: ReadonlyMap<number, number>,
): { drop: true } | { drop: false; expired: { projectId: number; beforeMs: number }[] } {
  const end = monthEnd(month);
  if (storing.length && storing.every((projectId) => (lines.get(projectId) ?? -Infinity) >= end)) return { drop: true };
  const expired = storing.flatMap((projectId) => {
    const beforeMs = lines.get(projectId);
    return beforeMs === undefined ? [] : [{ projectId, beforeMs }];
  });
  return { drop: false, expired };
}

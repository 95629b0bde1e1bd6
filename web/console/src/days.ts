/**
 * Days as the query API takes them (`yyyy-mm-dd`), counted in the project's time zone: the API cuts
 * a report's days on the project's clocks, so "today" and "the last 30 days" must be the zone's days
 * too, or a project east or west of UTC would see a range one day off around midnight.
 */

const formats = new Map<string, Intl.DateTimeFormat>();

function format(zone: string): Intl.DateTimeFormat {
  let known = formats.get(zone);
  if (!known) {
    const options = {
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
    } as const;
    try {
      known = new Intl.DateTimeFormat('en-US', { ...options, timeZone: zone });
    } catch {
      // A zone this browser does not know (its tz database is older than the server's): UTC days.
      known = new Intl.DateTimeFormat('en-US', { ...options, timeZone: 'UTC' });
    }
    formats.set(zone, known);
  }
  return known;
}

function partsIn(at: Date, zone: string): Record<string, string> {
  return Object.fromEntries(
    format(zone)
      .formatToParts(at)
      .map((p) => [p.type, p.value]),
  );
}

/** The day `at` falls on in `zone` (an IANA name; UTC when absent or unknown here). */
export function dayIn(at: Date, zone = 'UTC'): string {
  const parts = partsIn(at, zone);
  return `${parts.year}-${parts.month}-${parts.day}`;
}

/** `at` on the zone's clocks, `yyyy-mm-dd hh:mm:ss`. */
export function clockIn(at: Date, zone = 'UTC'): string {
  const parts = partsIn(at, zone);
  return `${parts.year}-${parts.month}-${parts.day} ${parts.hour}:${parts.minute}:${parts.second}`;
}

/** `day` moved by `days` calendar days (negative: back). */
export function addDays(day: string, days: number): string {
  const [y, m, d] = day.split('-').map(Number);
  return new Date(Date.UTC(y, m - 1, d + days)).toISOString().slice(0, 10);
}

/** The day `days` days before today in `zone` (0: today), counted in calendar days, not 24-hour steps. */
export function daysAgo(days: number, zone = 'UTC', now: Date = new Date()): string {
  return addDays(dayIn(now, zone), -days);
}

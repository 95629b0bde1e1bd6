import { DAY_MS } from './utc-days';

/**
 * The calendar of a project's time zone (docs/queries.md, "Time zone"). Reports count in civil days
 * of the zone, numbered from 1970-01-01 (day 0) like UTC days, and in "wall" milliseconds: what the
 * zone's clocks read, written as if it were UTC. The UTC calendar (utc-days.ts) then applies to wall
 * times unchanged, so a day, week or month bucket is the UTC rule on wall times, and only the edges of
 * a day (its first instant) need the zone. A day around a daylight-saving change lasts 23 or 25 hours;
 * its repeated wall hour is one hour key. Offsets come from Node's Intl (its tz database); ClickHouse
 * computes the same from its own (`timeZoneOffset`), and the project setting admits only zones both know.
 */
export class TimeZone {
  private static readonly known = new Map<string, TimeZone>();
  static readonly UTC = new TimeZone('UTC');

  private readonly parts?: Intl.DateTimeFormat;

  private constructor(readonly name: string) {
    if (name !== 'UTC') {
      this.parts = new Intl.DateTimeFormat('en-US', {
        timeZone: name,
        hourCycle: 'h23',
        era: 'short',
        year: 'numeric',
        month: 'numeric',
        day: 'numeric',
        hour: 'numeric',
        minute: 'numeric',
        second: 'numeric',
      });
    }
  }

  /** The zone named `name` (a RangeError when Intl does not know it); one instance per name. */
  static of(name: string): TimeZone {
    let zone = TimeZone.known.get(name);
    if (!zone) {
      zone = name === 'UTC' ? TimeZone.UTC : new TimeZone(name);
      TimeZone.known.set(name, zone);
    }
    return zone;
  }

  /** Its name, in a spec printed by a failing test. */
  toJSON(): string {
    return this.name;
  }

  get isUtc(): boolean {
    return this.parts === undefined;
  }

  /** How far the zone's clocks are ahead of UTC at the instant `ms`, in milliseconds. */
  offsetMs(ms: number): number {
    if (!this.parts) return 0;
    const seconds = Math.floor(ms / 1000) * 1000;
    const field: Record<string, number> = {};
    let bc = false;
    for (const { type, value } of this.parts.formatToParts(seconds)) {
      if (type === 'era') bc = value !== 'AD';
      else if (type !== 'literal') field[type] = Number(value);
    }
    const year = bc ? 1 - field.year : field.year;
    const wall = new Date(0).setUTCFullYear(year, field.month - 1, field.day);
    return wall + ((field.hour * 60 + field.minute) * 60 + field.second) * 1000 - seconds;
  }

  /** What the zone's clocks read at `ms`, as UTC milliseconds. */
  wallMs(ms: number): number {
    return ms + this.offsetMs(ms);
  }

  /**
   * The first instant whose wall time is `wall` or later: the earlier of two when clocks fall back
   * over it, the end of the gap when they spring forward over it.
   */
  instantOf(wall: number): number {
    if (!this.parts) return wall;
    const offsets = new Set([this.offsetMs(wall - DAY_MS), this.offsetMs(wall), this.offsetMs(wall + DAY_MS)]);
    const exact = [...offsets].map((offset) => wall - offset).filter((ms) => this.wallMs(ms) === wall);
    if (exact.length) return Math.min(...exact);
    // In a gap: the instant the clocks jump, between the readings of the offsets around it.
    let [low, high] = [wall - Math.max(...offsets), wall - Math.min(...offsets)];
    while (high - low > 1) {
      const middle = Math.floor((low + high) / 2);
      if (this.wallMs(middle) >= wall) high = middle;
      else low = middle;
    }
    return high;
  }

  /** The zone's civil day of the instant `ms`. */
  dayOf(ms: number): number {
    return Math.floor(this.wallMs(ms) / DAY_MS);
  }

  /** The first instant of the zone's civil day `day`. */
  dayStartMs(day: number): number {
    return this.instantOf(day * DAY_MS);
  }

  /** `[from_date 00:00, to_date + 1 00:00)` in the zone, as epoch milliseconds. */
  rangeMs(fromDay: number, toDay: number): { fromMs: number; toEndMs: number } {
    return { fromMs: this.dayStartMs(fromDay), toEndMs: this.dayStartMs(toDay + 1) };
  }

  /** `±HH:MM`, the zone's offset at `ms`. */
  offsetText(ms: number): string {
    const minutes = Math.round(this.offsetMs(ms) / 60_000);
    const abs = Math.abs(minutes);
    const pad = (n: number) => String(n).padStart(2, '0');
    return `${minutes < 0 ? '-' : '+'}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`;
  }

  /** ISO 8601 of `ms` on the zone's clocks with its offset (`2024-03-31T03:00:00+02:00`); `digits` of fraction. */
  isoText(ms: number, digits: 0 | 6 = 0): string {
    const wall = new Date(this.wallMs(ms)).toISOString();
    const fraction = digits === 6 ? `${wall.slice(19, 23)}000` : '';
    return `${wall.slice(0, 19)}${fraction}${this.offsetText(ms)}`;
  }
}

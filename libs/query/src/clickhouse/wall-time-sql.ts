import { TimeZone } from '../time/time-zone';

/**
 * The wall time (time-zone.ts) of `ms`, an SQL expression of epoch milliseconds: the twin of
 * `TimeZone.wallMs`, ClickHouse's offset of the zone at that instant added. In UTC it is `ms` itself,
 * so a UTC project's SQL is what it was before projects had a zone. The zone travels as the bound
 * `{timeZone:String}`: ClickHouse substitutes a parameter before analysis, so it is the constant the
 * time functions require, and an unknown name fails the query (it never reaches here: the project
 * setting admits only names ClickHouse knows).
 */
export function wallMsSql(ms: string, zone: TimeZone): string {
  return zone.isUtc ? ms : `(${ms} + timeZoneOffset(fromUnixTimestamp64Milli(${ms}, {timeZone:String})) * 1000)`;
}

/** The offset of the zone at `ms` in milliseconds, in SQL (0 in UTC): the twin of `TimeZone.offsetMs`. */
export function offsetMsSql(ms: string, zone: TimeZone): string {
  return zone.isUtc ? '0' : `(timeZoneOffset(fromUnixTimestamp64Milli(${ms}, {timeZone:String})) * 1000)`;
}

/** The parameters the zone's SQL names: none in UTC. */
export function zoneParams(zone: TimeZone): Record<string, string> {
  return zone.isUtc ? {} : { timeZone: zone.name };
}

/** A report's `[from_date, to_date]` in its zone: the `{fromMs}` and `{toEndMs}` bounds, and the zone's parameter. */
export function rangeParams(range: { fromDay: number; toDay: number; zone: TimeZone }): {
  fromMs: number;
  toEndMs: number;
  timeZone?: string;
} {
  return { ...range.zone.rangeMs(range.fromDay, range.toDay), ...zoneParams(range.zone) };
}

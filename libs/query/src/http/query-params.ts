import { invalidParameter } from '../query-error';
import { DateBuckets } from '../time/buckets';
import { TimeZone } from '../time/time-zone';
import { parseDay } from '../time/utc-days';

/**
 * The query API's parameters, read the way the real API reads them: strings in the query (or in a
 * form body for POST), empty values treated as absent, unknown names ignored. Every bad value is a
 * 400 naming the parameter. Dates are days of the project's time zone, which the params carry.
 */
export class QueryParams {
  constructor(
    private readonly params: URLSearchParams,
    readonly zone: TimeZone = TimeZone.UTC,
  ) {}

  /** The query string, and for POST the form or JSON body's string fields on top. */
  static from(originalUrl: string, body?: unknown, zone?: TimeZone): QueryParams {
    const params = new URL(originalUrl, 'http://local').searchParams;
    if (body && typeof body === 'object') {
      for (const [name, value] of Object.entries(body as Record<string, unknown>)) {
        if (!params.has(name) && value !== undefined && value !== null)
          params.set(name, typeof value === 'string' ? value : JSON.stringify(value));
      }
    }
    return new QueryParams(params, zone);
  }

  text(name: string): string | undefined {
    const value = this.params.get(name);
    return value === null || value === '' ? undefined : value;
  }

  requiredText(name: string): string {
    const value = this.text(name);
    if (value === undefined) throw invalidParameter(`${name} is required`);
    return value;
  }

  /** A `YYYY-MM-DD` day (of the project's zone), as its day number. */
  day(name: string): number {
    const text = this.text(name);
    if (text === undefined) throw invalidParameter(`${name} is required (yyyy-mm-dd)`);
    const day = parseDay(text);
    if (day === undefined) throw invalidParameter(`${name} must be a date as yyyy-mm-dd, got "${text}"`);
    return day;
  }

  integer(name: string, min: number, max: number): number | undefined {
    const text = this.text(name);
    if (text === undefined) return undefined;
    const value = Number(text);
    if (!/^-?\d+$/.test(text) || value < min || value > max)
      throw invalidParameter(`${name} must be a whole number from ${min} to ${max}, got "${text}"`);
    return value;
  }

  requiredInteger(name: string, min: number, max: number): number {
    const value = this.integer(name, min, max);
    if (value === undefined) throw invalidParameter(`${name} is required`);
    return value;
  }

  oneOf<T extends string>(name: string, values: readonly T[]): T | undefined {
    const text = this.text(name);
    if (text === undefined) return undefined;
    if (!(values as readonly string[]).includes(text))
      throw invalidParameter(`${name} must be one of ${values.join(', ')}, got "${text}"`);
    return text as T;
  }

  flag(name: string): boolean {
    const text = this.text(name);
    if (text === undefined || text === 'false' || text === '0') return false;
    if (text === 'true' || text === '1') return true;
    throw invalidParameter(`${name} must be true or false, got "${text}"`);
  }

  /** A JSON array of strings, e.g. `event=["Signed up","Purchase"]`. */
  stringArray(name: string): string[] | undefined {
    const text = this.text(name);
    if (text === undefined) return undefined;
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = undefined;
    }
    if (!Array.isArray(parsed) || !parsed.every((item) => typeof item === 'string')) {
      throw invalidParameter(`${name} must be a JSON array of strings, as in ["Signed up","Purchase"]`);
    }
    return parsed;
  }
}

/** Reports longer than this many days are refused: ten years of daily buckets. */
export const MAX_RANGE_DAYS = 3660;

/** Days `fromDay` to `toDay` of `zone`, both included (time-zone.ts). */
export interface DayRange {
  fromDay: number;
  toDay: number;
  zone: TimeZone;
}

export function dayRange(params: QueryParams): DayRange {
  const fromDay = params.day('from_date');
  const toDay = params.day('to_date');
  if (fromDay > toDay)
    throw invalidParameter(`from_date ${params.text('from_date')} is after to_date ${params.text('to_date')}`);
  if (toDay - fromDay >= MAX_RANGE_DAYS)
    throw invalidParameter(`from_date to to_date may span at most ${MAX_RANGE_DAYS} days`);
  return { fromDay, toDay, zone: params.zone };
}

/** Funnel and retention buckets: `interval` days, or `unit` day / week / month, never both. */
export function dateBuckets(params: QueryParams): DateBuckets {
  const interval = params.integer('interval', 1, MAX_RANGE_DAYS);
  const unit = params.oneOf('unit', ['day', 'week', 'month'] as const);
  if (interval !== undefined && unit !== undefined) throw invalidParameter('give either interval or unit, not both');
  if (unit === 'week' || unit === 'month') return { kind: unit };
  return { kind: 'days', days: interval ?? 1 };
}

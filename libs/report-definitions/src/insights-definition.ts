import { invalidDefinition } from './reports-error';
import { checkOptionalExpression } from './expression-check';
import { optional } from './optional';

export const INSIGHTS_MATH = ['total', 'unique', 'average', 'sum', 'min', 'max', 'median', 'p90'] as const;
export type InsightsMath = (typeof INSIGHTS_MATH)[number];
/** The math that reads a numeric property rather than counting events or users. */
export const PROPERTY_MATH: readonly InsightsMath[] = ['average', 'sum', 'min', 'max', 'median', 'p90'];

export const INSIGHTS_UNITS = ['hour', 'day', 'week', 'month'] as const;
export type InsightsUnit = (typeof INSIGHTS_UNITS)[number];

export const MAX_INSIGHTS_METRICS = 20;
export const MAX_LAST_DAYS = 3650;
export const DEFAULT_INSIGHTS_LIMIT = 60;
export const MAX_INSIGHTS_LIMIT = 10_000;

export interface InsightsMetric {
  event: string;
  math: InsightsMath;
  /** The custom property the math reads (its JSON numbers); needed by every math but total and unique. */
  property?: string;
  where?: string;
}

/** A saved insights report (a bookmark's `params`). */
export interface InsightsParams {
  events: InsightsMetric[];
  from_date?: string;
  to_date?: string;
  /** The project's last N days (its time zone's), today included; instead of from_date and to_date. */
  last_days?: number;
  unit: InsightsUnit;
  on?: string;
  limit?: number;
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;

function checkDay(field: string, value: string): string {
  const ms = Date.parse(`${value}T00:00:00Z`);
  if (!DAY.test(value) || Number.isNaN(ms) || new Date(ms).toISOString().slice(0, 10) !== value) {
    throw invalidDefinition(`${field} must be a date as yyyy-mm-dd, got "${value}"`);
  }
  return value;
}

function checkRange(params: InsightsParams): Pick<InsightsParams, 'from_date' | 'to_date' | 'last_days'> {
  const { from_date: from, to_date: to, last_days: lastDays } = params;
  if (lastDays !== undefined) {
    if (from !== undefined || to !== undefined)
      throw invalidDefinition('give either last_days or from_date and to_date, not both');
    if (!Number.isInteger(lastDays) || lastDays < 1 || lastDays > MAX_LAST_DAYS)
      throw invalidDefinition(`last_days must be a whole number from 1 to ${MAX_LAST_DAYS}`);
    return { last_days: lastDays };
  }
  if (from === undefined || to === undefined) throw invalidDefinition('give from_date and to_date, or last_days');
  if (checkDay('from_date', from) > checkDay('to_date', to))
    throw invalidDefinition(`from_date ${from} is after to_date ${to}`);
  return { from_date: from, to_date: to };
}

function checkMetric(metric: InsightsMetric, i: number): InsightsMetric {
  const needsProperty = PROPERTY_MATH.includes(metric.math);
  if (needsProperty && !metric.property)
    throw invalidDefinition(`events[${i}].property is required with math "${metric.math}"`);
  return {
    event: metric.event,
    math: metric.math,
    ...optional('property', needsProperty ? metric.property : undefined),
    ...optional('where', checkOptionalExpression(`events[${i}].where`, metric.where, 'events')),
  };
}

export function validateInsightsParams(params: InsightsParams): InsightsParams {
  if (params.events.length < 1 || params.events.length > MAX_INSIGHTS_METRICS)
    throw invalidDefinition(`events must hold 1 to ${MAX_INSIGHTS_METRICS} metrics`);
  if (
    params.limit !== undefined &&
    (!Number.isInteger(params.limit) || params.limit < 1 || params.limit > MAX_INSIGHTS_LIMIT)
  ) {
    throw invalidDefinition(`limit must be a whole number from 1 to ${MAX_INSIGHTS_LIMIT}`);
  }
  return {
    events: params.events.map(checkMetric),
    ...checkRange(params),
    unit: params.unit,
    ...optional('on', checkOptionalExpression('on', params.on, 'events', 'on')),
    ...optional('limit', params.limit),
  };
}

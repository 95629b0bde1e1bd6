import { DEFAULT_INSIGHTS_LIMIT, InsightsMath, InsightsParams } from '@analytics/report-definitions';
import { EventExpression, optionalEventExpression, propertyExpression } from '../expressions/query-expressions';
import { SeriesUnit } from '../time/series';
import { TimeZone } from '../time/time-zone';
import { parseDay } from '../time/utc-days';

export interface InsightsMetricSpec {
  /** The key of this metric in `series`. */
  name: string;
  event: string;
  math: InsightsMath;
  /** The numeric property the math reads (every math but total and unique). */
  property?: EventExpression;
  where?: EventExpression;
}

/** A saved insights report resolved for one run: dates fixed (last_days counts back from today, in `zone`). */
export interface InsightsSpec {
  metrics: InsightsMetricSpec[];
  fromDay: number;
  toDay: number;
  /** The project's time zone: the days, periods and returned dates are its. */
  zone: TimeZone;
  unit: SeriesUnit;
  on?: EventExpression;
  limit: number;
}

/** A metric's key is its event name, qualified by the math when the same event is shown twice. */
function metricNames(params: InsightsParams): string[] {
  const counts = new Map<string, number>();
  params.events.forEach((metric) => counts.set(metric.event, (counts.get(metric.event) ?? 0) + 1));
  return params.events.map((metric) => {
    if (counts.get(metric.event) === 1) return metric.event;
    return `${metric.event} (${metric.math}${metric.property ? ` of ${metric.property}` : ''})`;
  });
}

export function insightsSpec(params: InsightsParams, nowMs: number, zone: TimeZone): InsightsSpec {
  const names = metricNames(params);
  const lastDay = zone.dayOf(nowMs);
  return {
    metrics: params.events.map((metric, i) => ({
      name: names[i],
      event: metric.event,
      math: metric.math,
      property:
        metric.property === undefined ? undefined : propertyExpression(`events[${i}].property`, metric.property),
      where: optionalEventExpression(`events[${i}].where`, metric.where),
    })),
    fromDay: params.last_days !== undefined ? lastDay - params.last_days + 1 : parseDay(params.from_date!)!,
    toDay: params.last_days !== undefined ? lastDay : parseDay(params.to_date!)!,
    zone,
    unit: params.unit,
    on: optionalEventExpression('on', params.on),
    limit: params.limit ?? DEFAULT_INSIGHTS_LIMIT,
  };
}

import { insightsKey, seriesKeys } from '../time/series';
import { DAY_MS } from '../time/utc-days';
import { InsightsSpec } from './insights-spec';

export const OVERALL = '$overall';

/** One metric's value in one period and segment (`$overall` for all its events). */
export interface InsightsCell {
  metric: number;
  key: number;
  segment: string;
  value: number;
}

export interface InsightsTally {
  cells: InsightsCell[];
  /** Per metric, the kept segments in rank order (with `on`). */
  segments?: string[][];
}

export interface InsightsResult {
  computed_at: string;
  date_range: { from_date: string; to_date: string };
  headers: string[];
  series: Record<string, Record<string, number> | Record<string, Record<string, number>>>;
}

/** Microseconds, as the real API prints them. */
function isoWithOffset(ms: number): string {
  return `${new Date(ms).toISOString().slice(0, 23)}000+00:00`;
}

export function insightsResult(spec: InsightsSpec, tally: InsightsTally, nowMs: number): InsightsResult {
  const keys = seriesKeys(spec.fromDay, spec.toDay, spec.unit);
  const byId = new Map(tally.cells.map((cell) => [`${cell.metric}\u0000${cell.segment}\u0000${cell.key}`, cell.value]));
  const line = (metric: number, segment: string) =>
    Object.fromEntries(keys.map((key) => [insightsKey(key), byId.get(`${metric}\u0000${segment}\u0000${key}`) ?? 0]));
  const series: InsightsResult['series'] = {};
  spec.metrics.forEach((metric, i) => {
    if (!spec.on) {
      series[metric.name] = line(i, OVERALL);
      return;
    }
    series[metric.name] = Object.fromEntries(
      [OVERALL, ...(tally.segments?.[i] ?? [])].map((segment) => [segment, line(i, segment)]),
    );
  });
  return {
    computed_at: isoWithOffset(nowMs),
    date_range: {
      from_date: `${new Date(spec.fromDay * DAY_MS).toISOString().slice(0, 10)}T00:00:00+00:00`,
      to_date: isoWithOffset((spec.toDay + 1) * DAY_MS - 1),
    },
    headers: spec.on ? ['$event', spec.on.text] : ['$event'],
    series,
  };
}

import { insightsKey, seriesKeys } from '../time/series';
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

export function insightsResult(spec: InsightsSpec, tally: InsightsTally, nowMs: number): InsightsResult {
  const { zone } = spec;
  const keys = seriesKeys(spec.fromDay, spec.toDay, spec.unit, zone);
  const byId = new Map(tally.cells.map((cell) => [`${cell.metric}\u0000${cell.segment}\u0000${cell.key}`, cell.value]));
  const line = (metric: number, segment: string) =>
    Object.fromEntries(
      keys.map((key) => [insightsKey(key, zone), byId.get(`${metric}\u0000${segment}\u0000${key}`) ?? 0]),
    );
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
  const { fromMs, toEndMs } = zone.rangeMs(spec.fromDay, spec.toDay);
  // Times on the project's clocks with their offset; microseconds, as the real API prints them.
  return {
    computed_at: zone.isoText(nowMs, 6),
    date_range: { from_date: zone.isoText(fromMs), to_date: zone.isoText(toEndMs - 1, 6) },
    headers: spec.on ? ['$event', spec.on.text] : ['$event'],
    series,
  };
}

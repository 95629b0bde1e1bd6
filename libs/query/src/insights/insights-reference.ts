import { keepsEvent, numberOfEvent, segmentOfEvent } from '../expressions/query-expressions';
import { QueryEvent } from '../reference/query-event';
import { topSegments } from '../reference/segment-ranking';
import { seriesKeyOf } from '../time/series';
import { propertyMath } from './insights-math';
import { InsightsMetricSpec, InsightsSpec } from './insights-spec';
import { InsightsCell, InsightsTally, OVERALL } from './insights-tally';

/** Insights written plainly, for checking the SQL. */

interface Period {
  events: number;
  users: Set<string>;
  numbers: number[];
}

function periodValue(metric: InsightsMetricSpec, period: Period): number {
  if (metric.math === 'total') return period.events;
  if (metric.math === 'unique') return period.users.size;
  return propertyMath(metric.math, period.numbers);
}

function metricCells(
  events: readonly QueryEvent[],
  spec: InsightsSpec,
  metric: InsightsMetricSpec,
  index: number,
): { cells: InsightsCell[]; segments: string[] } {
  const { fromMs, toEndMs } = spec.zone.rangeMs(spec.fromDay, spec.toDay);
  const periods = new Map<string, Period & { key: number; segment: string }>();
  const totals = new Map<string, number>();
  const add = (key: number, segment: string, event: QueryEvent) => {
    const id = `${segment}\u0000${key}`;
    const period = periods.get(id) ?? { key, segment, events: 0, users: new Set<string>(), numbers: [] };
    period.events += 1;
    period.users.add(event.distinctId);
    const number = metric.property && numberOfEvent(metric.property, event);
    if (number !== undefined) period.numbers.push(number);
    periods.set(id, period);
  };
  for (const event of events) {
    if (
      event.event !== metric.event ||
      event.timeMs < fromMs ||
      event.timeMs >= toEndMs ||
      !keepsEvent([metric.where], event)
    )
      continue;
    const key = seriesKeyOf(spec.zone.wallMs(event.timeMs), spec.unit);
    add(key, OVERALL, event);
    const segment = spec.on && segmentOfEvent(spec.on, event);
    if (segment === undefined) continue;
    add(key, segment, event);
    totals.set(segment, (totals.get(segment) ?? 0) + 1);
  }
  const { kept } = topSegments(totals, spec.limit);
  const shown = new Set([OVERALL, ...kept]);
  const cells = [...periods.values()]
    .filter((p) => shown.has(p.segment))
    .map((p) => ({ metric: index, key: p.key, segment: p.segment, value: periodValue(metric, p) }));
  return { cells, segments: kept };
}

export function referenceInsights(events: readonly QueryEvent[], spec: InsightsSpec): InsightsTally {
  const perMetric = spec.metrics.map((metric, i) => metricCells(events, spec, metric, i));
  return { cells: perMetric.flatMap((m) => m.cells), ...(spec.on && { segments: perMetric.map((m) => m.segments) }) };
}

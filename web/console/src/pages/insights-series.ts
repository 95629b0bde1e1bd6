import { Series } from '../chart';

export interface InsightsResult {
  headers: string[];
  series: Record<string, Record<string, Record<string, number> | number>>;
}

/** The API's bucket key (`2026-11-24T00:00:00+00:00`) as an axis label. */
export const label = (key: string, unit: string) =>
  unit === 'hour' ? key.slice(0, 16).replace('T', ' ') : key.slice(0, 10);

/**
 * The unit of a result whose report is not at hand (a shared board's tile): hourly keys are the only
 * ones with a time other than midnight on the project's clocks, and only hours label differently.
 */
export function unitOfKeys(result: InsightsResult): string {
  const keys = Object.values(result.series).flatMap((byKey) =>
    Object.entries(byKey).flatMap(([key, value]) => (typeof value === 'object' ? Object.keys(value) : [key])),
  );
  return keys.some((key) => !key.slice(11).startsWith('00:00:00')) ? 'hour' : 'day';
}

/** One chart series per metric, or per metric and breakdown value (the API's `$overall` first). */
export function flattenSeries(result: InsightsResult, unit: string): { labels: string[]; series: Series[] } {
  const series: Series[] = [];
  const labels = new Set<string>();
  const add = (name: string, values: Record<string, number>) => {
    const relabelled: Record<string, number> = {};
    for (const [key, value] of Object.entries(values)) {
      relabelled[label(key, unit)] = value;
      labels.add(label(key, unit));
    }
    series.push({ name, values: relabelled });
  };
  for (const [metric, byKey] of Object.entries(result.series)) {
    const nested = Object.values(byKey).some((v) => typeof v === 'object');
    if (!nested) add(metric, byKey as Record<string, number>);
    else
      for (const [segment, values] of Object.entries(byKey))
        add(segment === '$overall' ? metric : `${metric} · ${segment}`, values as Record<string, number>);
  }
  return { labels: [...labels].sort(), series };
}

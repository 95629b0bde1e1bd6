/** `GET /api/query/retention`'s answer: per cohort date, the users born (`first`) and those back in each interval. */
/** A chart series (chart.tsx's `Series`, written out so this file stays free of JSX for its unit test). */
interface Series {
  name: string;
  values: Record<string, number>;
}

export type RetentionResult = Record<string, { counts: number[]; first: number }>;

/**
 * The retention curve: for each interval, the share (in %) of the users born who came back in it,
 * over every cohort old enough to have that interval (a cohort born today has no day 7 yet), and then
 * each of the newest cohorts on its own, all on the axis `<unit> 0`, `<unit> 1`, ….
 */
export function retentionCurves(
  result: RetentionResult,
  unit: string,
  cohorts: number,
): { labels: string[]; series: Series[] } {
  const rows = Object.entries(result).sort(([a], [b]) => a.localeCompare(b));
  const width = Math.max(0, ...rows.map(([, r]) => r.counts.length));
  const labels = Array.from({ length: width }, (_, i) => `${unit} ${i}`);
  const percent = (back: number, born: number) => (born ? Math.round((back / born) * 1000) / 10 : 0);
  const all: Record<string, number> = {};
  labels.forEach((label, i) => {
    const [back, born] = rows.reduce(
      ([b, n], [, r]) => (r.counts[i] === undefined ? [b, n] : [b + r.counts[i], n + r.first]),
      [0, 0],
    );
    all[label] = percent(back, born);
  });
  const born = rows.filter(([, r]) => r.first > 0);
  const newest = (cohorts > 0 ? born.slice(-cohorts) : []).map(([date, r]) => ({
    name: date,
    values: Object.fromEntries(r.counts.map((count, i) => [labels[i], percent(count, r.first)])),
  }));
  return { labels, series: [{ name: 'All cohorts', values: all }, ...newest] };
}

export interface FunnelStepResult {
  count: number;
  event: string;
  step_conv_ratio: number;
  overall_conv_ratio: number;
  avg_time: number | null;
}
interface DayResult {
  steps: FunnelStepResult[];
}
/** `GET /api/query/funnels`'s answer: per date bucket, the steps (or, with `on`, the steps per segment). */
export interface FunnelResult {
  meta: { dates: string[] };
  data: Record<string, DayResult | Record<string, DayResult>>;
}

/** Step counts summed over the dates of the range, per segment (`$overall` without a breakdown). */
export function totalsBySegment(result: FunnelResult): Map<string, FunnelStepResult[]> {
  const totals = new Map<string, FunnelStepResult[]>();
  for (const day of Object.values(result.data)) {
    const segments: Record<string, DayResult> =
      'steps' in day ? { $overall: day as DayResult } : (day as Record<string, DayResult>);
    for (const [segment, { steps }] of Object.entries(segments)) {
      const sum = totals.get(segment) ?? steps.map((s) => ({ ...s, count: 0 }));
      steps.forEach((s, i) => (sum[i].count += s.count));
      totals.set(segment, sum);
    }
  }
  for (const steps of totals.values()) {
    steps.forEach((s, i) => {
      s.step_conv_ratio = i === 0 ? 1 : steps[i - 1].count ? s.count / steps[i - 1].count : 0;
      s.overall_conv_ratio = steps[0].count ? s.count / steps[0].count : 0;
    });
  }
  return totals;
}

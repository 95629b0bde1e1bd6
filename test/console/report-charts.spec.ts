import { totalsBySegment } from '../../web/console/src/pages/funnel-totals';
import { retentionCurves } from '../../web/console/src/pages/retention-curve';

const step = (event: string, count: number) => ({
  event,
  count,
  step_conv_ratio: 1,
  overall_conv_ratio: 1,
  avg_time: null,
});

describe("the console's report charts", () => {
  it('sums a funnel’s steps over its dates, per segment, with the conversions of the sums', () => {
    const totals = totalsBySegment({
      meta: { dates: ['2024-03-04', '2024-03-05'] },
      data: {
        '2024-03-04': {
          $overall: { steps: [step('A', 3), step('B', 1)] },
          pro: { steps: [step('A', 1), step('B', 1)] },
        },
        '2024-03-05': {
          $overall: { steps: [step('A', 1), step('B', 1)] },
          pro: { steps: [step('A', 0), step('B', 0)] },
        },
      },
    });
    expect([...totals.keys()]).toEqual(['$overall', 'pro']);
    expect(totals.get('$overall')!.map((s) => [s.count, s.step_conv_ratio, s.overall_conv_ratio])).toEqual([
      [4, 1, 1],
      [2, 0.5, 0.5],
    ]);
    expect(totals.get('pro')!.map((s) => s.count)).toEqual([1, 1]);
  });

  it('draws retention as the share of each interval over the cohorts that have it, then the newest cohorts', () => {
    const { labels, series } = retentionCurves(
      {
        '2024-03-04': { first: 4, counts: [4, 2, 1] },
        '2024-03-05': { first: 0, counts: [0, 0] },
        '2024-03-06': { first: 2, counts: [2, 0] },
        '2024-03-07': { first: 3, counts: [3] },
      },
      'day',
      2,
    );
    expect(labels).toEqual(['day 0', 'day 1', 'day 2']);
    // Day 1: 2 of 4 and 0 of 2 (the empty cohort adds nothing, the newest has no day 1 yet).
    expect(series[0]).toEqual({ name: 'All cohorts', values: { 'day 0': 100, 'day 1': 33.3, 'day 2': 25 } });
    expect(series.slice(1)).toEqual([
      { name: '2024-03-06', values: { 'day 0': 100, 'day 1': 0 } },
      { name: '2024-03-07', values: { 'day 0': 100 } },
    ]);
  });

  it('draws only the curve of all cohorts when asked for no cohort of its own (a board tile)', () => {
    const { series } = retentionCurves({ '2024-03-04': { first: 2, counts: [2, 1] } }, 'day', 0);
    expect(series).toEqual([{ name: 'All cohorts', values: { 'day 0': 100, 'day 1': 50 } }]);
  });

  it('draws an empty range as an empty curve', () => {
    expect(retentionCurves({}, 'week', 5)).toEqual({ labels: [], series: [{ name: 'All cohorts', values: {} }] });
  });
});

import { TimeZone } from '../time/time-zone';
import { FunnelSpec } from './funnel-spec';
import { funnelResult, meanSeconds } from './funnel-tally';

const spec: FunnelSpec = {
  steps: [{ event: 'A' }, { event: 'B', label: 'Bought' }, { event: 'C' }],
  filters: [],
  windowMs: 1000,
  calendarWindow: false,
  fromDay: 19786,
  toDay: 19787,
  zone: TimeZone.UTC,
  buckets: { kind: 'days', days: 1 },
  limit: 255,
};

describe('funnel answer', () => {
  it('means whole seconds, halves up, exactly past 2^53 ms', () => {
    expect(meanSeconds(3000n, 2)).toBe(2);
    expect(meanSeconds(2999n, 2)).toBe(1);
    expect(meanSeconds(0n, 0)).toBeNull();
    expect(meanSeconds(2n ** 60n + 500n, 1)).toBe(Number((2n ** 60n + 1000n) / 1000n));
  });

  it('gives ratios of 1 at step 0, 0 over no users, and the earliest worst step', () => {
    const cell = {
      bucket: 19786,
      segment: '',
      counts: [4, 2, 0],
      fromPreviousMs: [0n, 4000n, 0n],
      fromStartMs: [0n, 4000n, 0n],
    };
    const result = funnelResult(spec, { cells: [cell] });
    expect(result.meta.dates).toEqual(['2024-03-04', '2024-03-05']);
    expect(result.data['2024-03-04']).toEqual({
      steps: [
        {
          count: 4,
          step_conv_ratio: 1,
          overall_conv_ratio: 1,
          avg_time: null,
          avg_time_from_start: null,
          goal: 'A',
          event: 'A',
          step_label: 'A',
        },
        {
          count: 2,
          step_conv_ratio: 0.5,
          overall_conv_ratio: 0.5,
          avg_time: 2,
          avg_time_from_start: 2,
          goal: 'B',
          event: 'B',
          step_label: 'Bought',
        },
        {
          count: 0,
          step_conv_ratio: 0,
          overall_conv_ratio: 0,
          avg_time: null,
          avg_time_from_start: null,
          goal: 'C',
          event: 'C',
          step_label: 'C',
        },
      ],
      analysis: { completion: 0, starting_amount: 4, steps: 3, worst: 1 },
    });
    expect(result.data['2024-03-05']).toMatchObject({
      steps: [{ count: 0, step_conv_ratio: 1 }, { count: 0, step_conv_ratio: 0 }, { count: 0 }],
    });
  });
});

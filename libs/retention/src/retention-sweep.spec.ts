import { monthEnd, monthPlan, sweepLine } from './retention-sweep';

describe('the retention sweep', () => {
  it('cuts at the start of today (UTC) minus the retention, whatever the hour', () => {
    const morning = Date.parse('2026-03-10T00:05:00Z');
    const evening = Date.parse('2026-03-10T23:55:00Z');
    expect(new Date(sweepLine(30, morning)).toISOString()).toBe('2026-02-08T00:00:00.000Z');
    expect(sweepLine(30, evening)).toBe(sweepLine(30, morning));
    expect(() => sweepLine(0, morning)).toThrow(RangeError);
  });

  it('knows where a month of the partitions ends, December included', () => {
    expect(new Date(monthEnd(202601)).toISOString()).toBe('2026-02-01T00:00:00.000Z');
    expect(new Date(monthEnd(202512)).toISOString()).toBe('2026-01-01T00:00:00.000Z');
  });

  it('drops a month only when every project storing events in it has expired it whole', () => {
    const lines = new Map([
      [1, Date.parse('2026-02-01T00:00:00Z')],
      [2, Date.parse('2026-01-15T00:00:00Z')],
    ]);
    expect(monthPlan(202601, [1], lines)).toEqual({ drop: true });
    // Project 2 keeps the second half of January; project 3 keeps everything.
    expect(monthPlan(202601, [1, 2], lines)).toEqual({
      drop: false,
      expired: [
        { projectId: 1, beforeMs: Date.parse('2026-02-01T00:00:00Z') },
        { projectId: 2, beforeMs: Date.parse('2026-01-15T00:00:00Z') },
      ],
    });
    expect(monthPlan(202601, [1, 3], lines)).toEqual({
      drop: false,
      expired: [{ projectId: 1, beforeMs: Date.parse('2026-02-01T00:00:00Z') }],
    });
    expect(monthPlan(202601, [], lines)).toEqual({ drop: false, expired: [] });
  });
});

import { sweepLine } from './retention-sweep';

describe('the retention sweep', () => {
  it('cuts at the start of today (UTC) minus the retention, whatever the hour', () => {
    const morning = Date.parse('2026-03-10T00:05:00Z');
    const evening = Date.parse('2026-03-10T23:55:00Z');
    expect(new Date(sweepLine(30, morning)).toISOString()).toBe('2026-02-08T00:00:00.000Z');
    expect(sweepLine(30, evening)).toBe(sweepLine(30, morning));
    expect(() => sweepLine(0, morning)).toThrow(RangeError);
  });
});

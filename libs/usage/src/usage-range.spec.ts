import { parseUsageRange } from './usage-range';

const now = new Date('2026-11-29T15:00:00Z');

describe('the usage range', () => {
  it('defaults to the last 90 days, today included', () => {
    expect(parseUsageRange(undefined, '', now)).toEqual({ from: '2026-09-01', to: '2026-11-29' });
  });

  it('takes the other end from the default span when one is given', () => {
    expect(parseUsageRange('2026-01-01', undefined, now)).toEqual({ from: '2026-01-01', to: '2026-03-31' });
    expect(parseUsageRange(undefined, '2026-03-31', now)).toEqual({ from: '2026-01-01', to: '2026-03-31' });
  });

  it('takes a whole leap year of 366 days and refuses a day more', () => {
    expect(parseUsageRange('2024-01-01', '2024-12-31', now)).toEqual({ from: '2024-01-01', to: '2024-12-31' });
    expect(() => parseUsageRange('2024-01-01', '2025-01-01', now)).toThrow('spans 367 days');
  });

  it('refuses dates that are not real calendar days', () => {
    expect(() => parseUsageRange('2026-02-29', undefined, now)).toThrow('from_date must be a date');
    expect(() => parseUsageRange(undefined, '2026-1-01', now)).toThrow('to_date must be a date');
  });
});

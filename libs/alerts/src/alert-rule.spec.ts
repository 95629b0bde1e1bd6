import { latestCompletePeriod, periodEnd, ruleFires } from './alert-rule';

const DAY = 86_400_000;
const day = (iso: string) => `${iso}T00:00:00+00:00`;

describe('alert rules', () => {
  const line = { [day('2026-11-27')]: 10, [day('2026-11-28')]: 15, [day('2026-11-29')]: 2 };
  const noonOf29 = Date.parse('2026-11-29T12:00:00Z');

  it('read the latest period that has ended, with the one before it', () => {
    expect(latestCompletePeriod(line, 'day', noonOf29)).toEqual({ period: day('2026-11-28'), value: 15, previous: 10 });
    expect(latestCompletePeriod(line, 'day', Date.parse('2026-11-30T00:00:00Z'))).toEqual({
      period: day('2026-11-29'),
      value: 2,
      previous: 15,
    });
  });

  it('have no period to read while the first one is still counting, and no previous for the first', () => {
    expect(latestCompletePeriod(line, 'day', Date.parse('2026-11-27T23:59:59Z'))).toBeUndefined();
    expect(latestCompletePeriod(line, 'day', Date.parse('2026-11-28T00:00:00Z'))).toEqual({
      period: day('2026-11-27'),
      value: 10,
    });
  });

  it('end weeks after 7 days and months on the first of the next', () => {
    expect(periodEnd(Date.parse('2026-11-23T00:00:00Z'), 'week')).toBe(Date.parse('2026-11-23T00:00:00Z') + 7 * DAY);
    expect(periodEnd(Date.parse('2026-12-01T00:00:00Z'), 'month')).toBe(Date.parse('2027-01-01T00:00:00Z'));
    expect(periodEnd(Date.parse('2026-11-29T10:00:00Z'), 'hour')).toBe(Date.parse('2026-11-29T11:00:00Z'));
  });

  it('fire above and below strictly', () => {
    expect(ruleFires('above', 10, { period: 'p', value: 11 })).toBe(true);
    expect(ruleFires('above', 10, { period: 'p', value: 10 })).toBe(false);
    expect(ruleFires('below', 10, { period: 'p', value: 9 })).toBe(true);
    expect(ruleFires('below', 10, { period: 'p', value: 10 })).toBe(false);
  });

  it('fire on a change of more than N % either way against the previous period', () => {
    expect(ruleFires('changed_by_percent', 50, { period: 'p', value: 16, previous: 10 })).toBe(true);
    expect(ruleFires('changed_by_percent', 50, { period: 'p', value: 15, previous: 10 })).toBe(false);
    expect(ruleFires('changed_by_percent', 50, { period: 'p', value: 4, previous: 10 })).toBe(true);
    expect(ruleFires('changed_by_percent', 50, { period: 'p', value: 5, previous: 10 })).toBe(false);
    expect(ruleFires('changed_by_percent', 50, { period: 'p', value: 1, previous: 0 })).toBe(true);
    expect(ruleFires('changed_by_percent', 50, { period: 'p', value: 0, previous: 0 })).toBe(false);
    expect(ruleFires('changed_by_percent', 50, { period: 'p', value: 100 })).toBe(false);
  });
});

import { TimeZone } from '@analytics/query';
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

  it("end days, weeks and months at the project's midnights, a daylight-saving day after 25 hours", () => {
    const berlin = TimeZone.of('Europe/Berlin');
    // Berlin falls back on 2024-10-27: that day lasts 25 hours, 22:00Z on the 26th to 23:00Z on the 27th.
    const fallBack = Date.parse('2024-10-27T00:00:00+02:00');
    expect(periodEnd(fallBack, 'day', berlin)).toBe(Date.parse('2024-10-28T00:00:00+01:00'));
    expect(periodEnd(Date.parse('2024-10-21T00:00:00+02:00'), 'week', berlin)).toBe(
      Date.parse('2024-10-28T00:00:00+01:00'),
    );
    expect(periodEnd(Date.parse('2024-03-01T00:00:00+01:00'), 'month', berlin)).toBe(
      Date.parse('2024-04-01T00:00:00+02:00'),
    );
    // At 23:30 that evening the day is still counting: reading it would fire "below" on a partial day.
    const line = { '2024-10-26T00:00:00+02:00': 5, '2024-10-27T00:00:00+02:00': 1 };
    expect(latestCompletePeriod(line, 'day', Date.parse('2024-10-27T23:30:00+01:00'), berlin)).toEqual({
      period: '2024-10-26T00:00:00+02:00',
      value: 5,
    });
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

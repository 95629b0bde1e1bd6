import { addDays, clockIn, dayIn, daysAgo } from '../../web/console/src/days';

describe("the console's days, in the project's time zone", () => {
  // 23:30 UTC on 30 March 2024: already the 31st in Berlin, still the 30th in New York.
  const lateEvening = new Date('2024-03-30T23:30:00Z');

  it('reads today on the zone’s clocks', () => {
    expect(dayIn(lateEvening, 'UTC')).toBe('2024-03-30');
    expect(dayIn(lateEvening, 'Europe/Berlin')).toBe('2024-03-31');
    expect(dayIn(lateEvening, 'Asia/Kolkata')).toBe('2024-03-31');
    expect(dayIn(new Date('2024-03-31T03:30:00Z'), 'America/New_York')).toBe('2024-03-30');
  });

  it('counts back calendar days, across a daylight-saving change, months and years', () => {
    // Berlin's clocks skip an hour on 31 March 2024: the day is 23 hours long and still one day.
    expect(daysAgo(0, 'Europe/Berlin', lateEvening)).toBe('2024-03-31');
    expect(daysAgo(1, 'Europe/Berlin', new Date('2024-03-31T22:30:00Z'))).toBe('2024-03-31');
    expect(daysAgo(29, 'Europe/Berlin', lateEvening)).toBe('2024-03-02');
    expect(daysAgo(13, 'UTC', lateEvening)).toBe('2024-03-17');
    expect(addDays('2024-03-01', -1)).toBe('2024-02-29');
    expect(addDays('2023-12-31', 1)).toBe('2024-01-01');
  });

  it('shows a time on the zone’s clocks', () => {
    expect(clockIn(lateEvening, 'UTC')).toBe('2024-03-30 23:30:00');
    expect(clockIn(lateEvening, 'Europe/Berlin')).toBe('2024-03-31 00:30:00');
    expect(clockIn(new Date('2024-03-31T01:05:09Z'), 'Europe/Berlin')).toBe('2024-03-31 03:05:09');
  });

  it('falls back to UTC days for a zone the browser does not know, or none', () => {
    expect(dayIn(lateEvening, 'Mars/Olympus_Mons')).toBe('2024-03-30');
    expect(daysAgo(0, undefined, lateEvening)).toBe('2024-03-30');
  });
});

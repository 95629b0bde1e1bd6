import { TimeZone } from './time-zone';
import { DAY_MS, formatDay, parseDay } from './utc-days';

const day = (text: string) => parseDay(text)!;
const at = (iso: string) => Date.parse(iso);

describe('TimeZone', () => {
  const berlin = TimeZone.of('Europe/Berlin');
  const newYork = TimeZone.of('America/New_York');
  const kolkata = TimeZone.of('Asia/Kolkata');

  it('is UTC unchanged for UTC', () => {
    const utc = TimeZone.of('UTC');
    expect(utc.isUtc).toBe(true);
    expect(utc.dayStartMs(day('2024-03-31'))).toBe(at('2024-03-31T00:00:00Z'));
    expect(utc.isoText(at('2024-03-31T12:00:00Z'))).toBe('2024-03-31T12:00:00+00:00');
  });

  it('gives days of 23 and 25 hours around the daylight-saving changes', () => {
    const spring = berlin.rangeMs(day('2024-03-31'), day('2024-03-31'));
    expect(spring).toEqual({ fromMs: at('2024-03-30T23:00:00Z'), toEndMs: at('2024-03-31T22:00:00Z') });
    expect(spring.toEndMs - spring.fromMs).toBe(23 * 3_600_000);
    const fall = newYork.rangeMs(day('2024-11-03'), day('2024-11-03'));
    expect(fall).toEqual({ fromMs: at('2024-11-03T04:00:00Z'), toEndMs: at('2024-11-04T05:00:00Z') });
    expect(formatDay(berlin.dayOf(at('2024-03-30T22:59:59.999Z')))).toBe('2024-03-30');
    expect(formatDay(berlin.dayOf(at('2024-03-30T23:00:00Z')))).toBe('2024-03-31');
  });

  it('reads the clocks of half-hour offsets and formats the offset', () => {
    expect(kolkata.wallMs(at('2024-03-04T18:30:00Z'))).toBe(day('2024-03-05') * DAY_MS);
    expect(kolkata.isoText(at('2024-03-04T18:30:00Z'))).toBe('2024-03-05T00:00:00+05:30');
    expect(newYork.isoText(at('2024-11-04T04:59:59.999Z'), 6)).toBe('2024-11-03T23:59:59.999000-05:00');
  });

  it('maps a repeated wall time to its first instant and a skipped one to the end of the gap', () => {
    expect(berlin.instantOf(at('2024-10-27T02:30:00Z'))).toBe(at('2024-10-27T00:30:00Z'));
    expect(berlin.instantOf(at('2024-03-31T02:30:00Z'))).toBe(at('2024-03-31T01:00:00Z'));
    // Where midnight itself is skipped (Chile, 2024-09-08), the day starts at 01:00.
    expect(new Date(TimeZone.of('America/Santiago').dayStartMs(day('2024-09-08'))).toISOString()).toBe(
      '2024-09-08T04:00:00.000Z',
    );
  });

  it('knows days before 1970', () => {
    expect(formatDay(berlin.dayOf(at('1969-12-31T23:30:00Z')))).toBe('1970-01-01');
  });
});

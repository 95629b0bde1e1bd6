import { AnnotationsError } from './annotations-error';
import { formatAnnotationDate, parseAnnotationDate, parseDateRange } from './annotation-date';

describe('annotation dates', () => {
  it('reads YYYY-MM-DD HH:mm:ss and YYYY-MM-DD as UTC, and writes the first form', () => {
    expect(parseAnnotationDate('2024-02-29 23:59:58').toISOString()).toBe('2024-02-29T23:59:58.000Z');
    expect(parseAnnotationDate('2024-03-01').toISOString()).toBe('2024-03-01T00:00:00.000Z');
    expect(formatAnnotationDate(new Date('2024-03-01T07:08:09.000Z'))).toBe('2024-03-01 07:08:09');
  });

  it.each([
    '2023-02-29 00:00:00',
    '2024-13-01',
    '2024-01-01 24:00:00',
    '2024-01-01T00:00:00',
    '2024-1-1',
    '',
    'yesterday',
    '0999-01-01',
  ])('refuses "%s"', (text) => {
    expect(() => parseAnnotationDate(text)).toThrow(AnnotationsError);
  });

  it('includes the whole day of a bare toDate, and refuses a reversed range', () => {
    const { from, to } = parseDateRange('2024-01-01', '2024-01-31');
    expect([from?.toISOString(), to?.toISOString()]).toEqual(['2024-01-01T00:00:00.000Z', '2024-01-31T23:59:59.000Z']);
    expect(parseDateRange(undefined, '2024-01-31 12:00:00').to?.toISOString()).toBe('2024-01-31T12:00:00.000Z');
    expect(parseDateRange(undefined, undefined)).toEqual({ from: undefined, to: undefined });
    expect(() => parseDateRange('2024-02-01', '2024-01-31')).toThrow('fromDate is after toDate');
    expect(() => parseDateRange('2024-02-01 10:00', undefined)).toThrow(
      'fromDate must be a date as YYYY-MM-DD HH:mm:ss or YYYY-MM-DD (UTC), got "2024-02-01 10:00"',
    );
  });
});

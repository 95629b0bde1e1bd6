import { bucketKeys, bucketLabels, bucketOf } from './buckets';
import { segmentationKey, seriesKeyOf, seriesKeys } from './series';
import { addMonths, formatDay, mondayOf, parseDay } from './utc-days';

const day = (text: string) => parseDay(text)!;

describe('UTC calendar', () => {
  it('parses only real days', () => {
    expect(formatDay(day('2024-02-29'))).toBe('2024-02-29');
    expect(parseDay('2023-02-29')).toBeUndefined();
    expect(parseDay('2024-2-1')).toBeUndefined();
  });

  it('finds the Monday of a week, before 1970 too', () => {
    expect(formatDay(mondayOf(day('2024-03-10')))).toBe('2024-03-04');
    expect(formatDay(mondayOf(day('2024-03-04')))).toBe('2024-03-04');
    expect(formatDay(mondayOf(day('1969-12-31')))).toBe('1969-12-29');
  });

  it('adds calendar months, clamping the day to the month, keeping the time of day', () => {
    expect(new Date(addMonths(Date.parse('2024-01-31T10:00:00.123Z'), 1)).toISOString()).toBe(
      '2024-02-29T10:00:00.123Z',
    );
    expect(new Date(addMonths(Date.parse('2024-03-31T00:00:00Z'), -1)).toISOString()).toBe('2024-02-29T00:00:00.000Z');
    expect(new Date(addMonths(Date.parse('2023-12-15T00:00:00Z'), 2)).toISOString()).toBe('2024-02-15T00:00:00.000Z');
  });
});

describe('date buckets', () => {
  it('cuts N-day buckets from from_date, the last at to_date', () => {
    expect(bucketLabels(day('2024-03-04'), day('2024-03-10'), { kind: 'days', days: 3 })).toEqual([
      '2024-03-04',
      '2024-03-07',
      '2024-03-10',
    ]);
    expect(formatDay(bucketOf(day('2024-03-09'), { kind: 'days', days: 3 }, day('2024-03-04')))).toBe('2024-03-07');
  });

  it('keys weeks by their Monday and months by their 1st, even before from_date', () => {
    expect(bucketLabels(day('2024-03-06'), day('2024-03-12'), { kind: 'week' })).toEqual(['2024-03-04', '2024-03-11']);
    expect(bucketLabels(day('2024-01-30'), day('2024-03-01'), { kind: 'month' })).toEqual([
      '2024-01-01',
      '2024-02-01',
      '2024-03-01',
    ]);
    expect(bucketKeys(day('2024-03-04'), day('2024-03-04'), { kind: 'days', days: 1 })).toEqual([day('2024-03-04')]);
  });
});

describe('time series keys', () => {
  it('lists every hour of the range with the segmentation format', () => {
    const keys = seriesKeys(day('2024-03-04'), day('2024-03-04'), 'hour');
    expect(keys).toHaveLength(24);
    expect(segmentationKey(keys[13], 'hour')).toBe('2024-03-04 13:00:00');
    expect(segmentationKey(seriesKeyOf(Date.parse('2024-03-10T23:59:59.999Z'), 'week'), 'week')).toBe('2024-03-04');
  });
});

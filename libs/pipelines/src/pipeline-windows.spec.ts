import { dueWindows, windowAfter, windowDueAt, windowOf, windowPath } from './pipeline-windows';

const t = (iso: string) => new Date(iso);
const starts = (windows: { start: Date }[]) => windows.map((w) => w.start.toISOString());

describe('pipeline windows', () => {
  const daily = { frequency: 'daily' as const, fromDate: '2026-11-01', toDate: undefined };
  const hourly = { frequency: 'hourly' as const, fromDate: '2026-11-01', toDate: '2026-11-01' };

  it('backfills every window closed at creation at once, oldest first', () => {
    const created = t('2026-11-04T10:00:00Z');
    expect(starts(dueWindows(daily, created, created))).toEqual([
      '2026-11-01T00:00:00.000Z',
      '2026-11-02T00:00:00.000Z',
      '2026-11-03T00:00:00.000Z',
    ]);
  });

  it('runs later daily windows at 00:30 and hourly ones at :30', () => {
    const created = t('2026-11-04T10:00:00Z');
    expect(windowDueAt({ start: t('2026-11-04T00:00:00Z'), end: t('2026-11-05T00:00:00Z') }, created)).toEqual(
      t('2026-11-05T00:30:00Z'),
    );
    expect(dueWindows(daily, created, t('2026-11-05T00:29:59Z'))).toHaveLength(3);
    expect(dueWindows(daily, created, t('2026-11-05T00:30:00Z'))).toHaveLength(4);
    const hourCreated = t('2026-11-01T05:10:00Z');
    expect(starts(dueWindows(hourly, hourCreated, t('2026-11-01T06:29:00Z'))).at(-1)).toBe('2026-11-01T04:00:00.000Z');
    expect(starts(dueWindows(hourly, hourCreated, t('2026-11-01T06:30:00Z'))).at(-1)).toBe('2026-11-01T05:00:00.000Z');
  });

  it('stops at to_date and continues after a given window', () => {
    expect(dueWindows(hourly, t('2026-11-03T00:00:00Z'), t('2026-11-03T00:00:00Z'))).toHaveLength(24);
    expect(
      starts(
        dueWindows(daily, t('2026-11-04T10:00:00Z'), t('2026-11-04T10:00:00Z'), { after: t('2026-11-02T00:00:00Z') }),
      ),
    ).toEqual(['2026-11-03T00:00:00.000Z']);
    expect(windowAfter(hourly, t('2026-11-01T23:00:00Z'))).toBeUndefined();
    expect(windowAfter(daily, undefined)?.start).toEqual(t('2026-11-01T00:00:00Z'));
  });

  it('lays windows out as YYYY/MM/DD[/HH]', () => {
    expect(windowPath('daily', windowOf('daily', t('2026-01-02T13:14:15Z')))).toBe('2026/01/02');
    expect(windowPath('hourly', windowOf('hourly', t('2026-01-02T13:14:15Z')))).toBe('2026/01/02/13');
  });
});

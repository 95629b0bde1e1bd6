import { advance, parseWatermark, resumeCursor, watermarkText } from './source-cursor';

describe('source cursor', () => {
  const T = '2026-05-01 10:00:00+00';

  it('counts the rows read at the last insert time across pages', () => {
    const first = advance(undefined, { last: { time: T, key: '3' }, rowsAtLastTime: 2 });
    expect(first).toEqual({ time: T, key: '3', rowsAtTime: 2 });
    expect(advance(first, { last: { time: T, key: '6' }, rowsAtLastTime: 3 })).toEqual({
      time: T,
      key: '6',
      rowsAtTime: 5,
    });
    expect(advance(first, { last: { time: '2026-05-01 11:00:00+00', key: '1' }, rowsAtLastTime: 1 })).toEqual({
      time: '2026-05-01 11:00:00+00',
      key: '1',
      rowsAtTime: 1,
    });
  });

  it('resumes after the committed row while the source holds as many rows at its time, else reads that time again', () => {
    const committed = parseWatermark(watermarkText({ time: T, key: '6', rowsAtTime: 5 }));
    expect(resumeCursor(committed, 5)).toEqual({ time: T, key: '6', rowsAtTime: 5 });
    // A row committed later at the watermark's own time, with a smaller key.
    expect(resumeCursor(committed, 6)).toEqual({ time: T, rowsAtTime: 0 });
    expect(resumeCursor(undefined, undefined)).toBeUndefined();
  });

  it('reads a watermark of the insert time alone (before keys were kept) as that time, inclusive', () => {
    expect(resumeCursor(parseWatermark(T), undefined)).toEqual({ time: T, rowsAtTime: 0 });
  });
});

import { LINE_OVERHEAD_BYTES, planPages } from './export-plan';

const bucket = (event: string, day: string, rows: number, bytes: number) => ({ event, day, rows, bytes });

describe('planPages', () => {
  it('bounds pages by estimated bytes, not rows', () => {
    const page = 1_000_000;
    // 1,000 small events fit a page; 1,000 events of 20 KB are split into 21 shares.
    const small = planPages([bucket('A', '2026-01-01', 1000, 300_000)], page);
    expect(small).toEqual([
      { buckets: [['A', '2026-01-01']], rows: 1000, bytes: 300_000 + 1000 * LINE_OVERHEAD_BYTES },
    ]);
    const large = planPages([bucket('B', '2026-01-01', 1000, 20_000_000)], page);
    expect(large).toHaveLength(Math.ceil((20_000_000 + 1000 * LINE_OVERHEAD_BYTES) / page));
    expect(large.map((p) => p.share!.index)).toEqual(large.map((_, i) => i));
    expect(large.every((p) => p.bytes <= page)).toBe(true);
  });

  it('keeps consecutive buckets together until the next would overflow the page', () => {
    const pages = planPages(
      [
        bucket('A', '2026-01-01', 10, 400_000),
        bucket('A', '2026-01-02', 10, 400_000),
        bucket('A', '2026-01-03', 10, 400_000),
        bucket('B', '2026-01-01', 10, 100),
      ],
      1_000_000,
    );
    expect(pages.map((p) => p.buckets)).toEqual([
      [
        ['A', '2026-01-01'],
        ['A', '2026-01-02'],
      ],
      [
        ['A', '2026-01-03'],
        ['B', '2026-01-01'],
      ],
    ]);
  });

  it('never cuts a bucket into more shares than it has rows', () => {
    expect(planPages([bucket('C', '2026-01-01', 2, 50_000_000)], 1_000_000)).toHaveLength(2);
  });
});

import { BatchGatherer } from './batch-gatherer';
import { BatchPart } from './batch-part';

const part = (partition: number, rows: number): BatchPart => ({
  topic: 't',
  partition,
  records: [{ offset: '0', value: Buffer.from('x'), rows }],
  lastOffset: '0',
  rows,
});

describe('BatchGatherer', () => {
  afterEach(() => jest.useRealTimers());

  it('flushes as soon as enough rows wait, with every part gathered so far', async () => {
    const flushed: number[][] = [];
    const gatherer = new BatchGatherer(async (parts) => void flushed.push(parts.map((p) => p.partition)), { flushIntervalMs: 60_000, maxRows: 10 });
    const first = gatherer.add(part(0, 4));
    const second = gatherer.add(part(1, 6));
    await Promise.all([first, second]);
    expect(flushed).toEqual([[0, 1]]);
  });

  it('flushes what waits once the interval has passed', async () => {
    jest.useFakeTimers();
    const flush = jest.fn(async () => undefined);
    const gatherer = new BatchGatherer(flush, { flushIntervalMs: 500, maxRows: 1000 });
    const added = gatherer.add(part(0, 1));
    await jest.advanceTimersByTimeAsync(499);
    expect(flush).not.toHaveBeenCalled();
    await jest.advanceTimersByTimeAsync(1);
    await added;
    expect(flush).toHaveBeenCalledTimes(1);
  });

  it('runs one flush at a time, in order, and fails every part of a failed flush', async () => {
    const order: string[] = [];
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const gatherer = new BatchGatherer(
      async (parts) => {
        order.push(`start ${parts[0].partition}`);
        if (parts[0].partition === 0) await gate;
        order.push(`end ${parts[0].partition}`);
        if (parts[0].partition === 1) throw new Error('engine down');
      },
      { flushIntervalMs: 60_000, maxRows: 1 },
    );
    const first = gatherer.add(part(0, 1));
    const second = gatherer.add(part(1, 1));
    release();
    await first;
    await expect(second).rejects.toThrow('engine down');
    expect(order).toEqual(['start 0', 'end 0', 'start 1', 'end 1']);
  });
});

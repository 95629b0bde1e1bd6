import { BatchGatherer } from './batch-gatherer';
import { BatchPart } from './batch-part';

const part = (partition: number, rows: number, bytes = 1): BatchPart => ({
  topic: 't',
  partition,
  records: [{ offset: '0', value: Buffer.alloc(bytes), rows }],
  lastOffset: '0',
  rows,
});

/** A flush that stays open until released, recording the partitions of each batch it was given. */
function gatedFlush() {
  const batches: number[][] = [];
  const gates: (() => void)[] = [];
  const flush = (parts: BatchPart[]) => {
    batches.push(parts.map((p) => p.partition));
    return new Promise<void>((resolve) => gates.push(resolve));
  };
  return { batches, flush, releaseNext: () => gates.shift()?.() };
}

const settled = async (promise: Promise<unknown>) => {
  let done = false;
  void promise.then(() => (done = true));
  await new Promise((resolve) => setImmediate(resolve));
  return done;
};
const noErrors = (error: unknown) => {
  throw error;
};

describe('BatchGatherer', () => {
  afterEach(() => jest.useRealTimers());

  it('flushes as soon as the rows waiting reach the bound, with every part gathered so far', async () => {
    const flushed: number[][] = [];
    const gatherer = new BatchGatherer(
      async (parts) => void flushed.push(parts.map((p) => p.partition)),
      { flushIntervalMs: 60_000, maxRows: 10 },
      noErrors,
    );
    await gatherer.add(part(0, 4));
    await gatherer.add(part(1, 6));
    await gatherer.flushNow();
    expect(flushed).toEqual([[0, 1]]);
  });

  it('flushes as soon as the bytes waiting reach the bound, whatever the rows', async () => {
    const flushed: number[][] = [];
    const gatherer = new BatchGatherer(
      async (parts) => void flushed.push(parts.map((p) => p.partition)),
      { flushIntervalMs: 60_000, maxRows: 1000, maxBytes: 100 },
      noErrors,
    );
    await gatherer.add(part(0, 1, 60));
    expect(flushed).toEqual([]);
    await gatherer.add(part(1, 1, 40));
    expect(flushed).toEqual([[0, 1]]);
  });

  it('flushes what waits once the interval has passed', async () => {
    jest.useFakeTimers();
    const flush = jest.fn(async () => undefined);
    const gatherer = new BatchGatherer(flush, { flushIntervalMs: 500, maxRows: 1000 }, noErrors);
    await gatherer.add(part(0, 1));
    await jest.advanceTimersByTimeAsync(499);
    expect(flush).not.toHaveBeenCalled();
    await jest.advanceTimersByTimeAsync(1);
    expect(flush).toHaveBeenCalledTimes(1);
  });

  it('gathers the next batch while one is written, and holds the caller back once that batch is full', async () => {
    const { batches, flush, releaseNext } = gatedFlush();
    const gatherer = new BatchGatherer(flush, { flushIntervalMs: 60_000, maxRows: 2 }, noErrors);
    await gatherer.add(part(0, 2)); // full: written at once, and the caller goes on
    expect(batches).toEqual([[0]]);
    expect(await settled(gatherer.add(part(1, 1)))).toBe(true); // room left: the consumer fetches on
    const full = gatherer.add(part(2, 1));
    expect(await settled(full)).toBe(false); // full while the first is written: back-pressure
    releaseNext();
    await full;
    expect(batches).toEqual([[0], [1, 2]]); // one write at a time, in order
    releaseNext();
    await gatherer.flushNow();
  });

  it('hands a failed flush with its parts to the error handler, and goes on with the next', async () => {
    const failures: number[][] = [];
    const flushed: number[][] = [];
    const gatherer = new BatchGatherer(
      async (parts) => {
        if (parts[0].partition === 1) throw new Error('engine down');
        flushed.push(parts.map((p) => p.partition));
      },
      { flushIntervalMs: 60_000, maxRows: 1 },
      (_error, parts) => failures.push(parts.map((p) => p.partition)),
    );
    await gatherer.add(part(1, 1));
    await gatherer.add(part(2, 1));
    await gatherer.flushNow();
    expect(failures).toEqual([[1]]);
    expect(flushed).toEqual([[2]]);
  });
});

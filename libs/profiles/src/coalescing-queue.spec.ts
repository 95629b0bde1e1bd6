import { CoalescingQueue } from './coalescing-queue';

describe('CoalescingQueue', () => {
  it('runs one batch at a time, gathering what arrives meanwhile, in arrival order', async () => {
    const runs: number[][][] = [];
    let release: () => void = () => undefined;
    const queue = new CoalescingQueue<number, number>(async (batches) => {
      runs.push(batches);
      if (runs.length === 1) await new Promise<void>((resolve) => (release = resolve));
      return batches.map((items) => items.reduce((a, b) => a + b, 0));
    });
    const first = queue.push([1]);
    const second = queue.push([2, 3]);
    const third = queue.push([4]);
    release();
    expect(await Promise.all([first, second, third])).toEqual([1, 5, 4]);
    expect(runs).toEqual([[[1]], [[2, 3], [4]]]);
  });

  it('fails every caller of a failed batch, and goes on with the next', async () => {
    let calls = 0;
    const queue = new CoalescingQueue<string, string>(async (batches) => {
      if (calls++ === 0) throw new Error('storage down');
      return batches.map((items) => items.join());
    });
    await expect(queue.push(['a'])).rejects.toThrow('storage down');
    expect(await queue.push(['b', 'c'])).toBe('b,c');
  });
});

import { streamParts } from './stream-parts';

async function collect(chunks: (Buffer | string)[], size: number): Promise<Buffer[]> {
  const parts: Buffer[] = [];
  for await (const part of streamParts(
    (async function* () {
      yield* chunks;
    })(),
    size,
  ))
    parts.push(part);
  return parts;
}

describe('streamParts', () => {
  it('cuts exact parts across chunk boundaries and keeps the tail', async () => {
    const parts = await collect(['abc', 'defgh', 'i', 'jklmnopq'], 4);
    expect(parts.map(String)).toEqual(['abcd', 'efgh', 'ijkl', 'mnop', 'q']);
  });

  it('yields nothing for an empty stream and no empty tail after an exact multiple', async () => {
    expect(await collect([], 4)).toEqual([]);
    expect(await collect([Buffer.alloc(0)], 4)).toEqual([]);
    expect((await collect(['abcdefgh'], 4)).map(String)).toEqual(['abcd', 'efgh']);
  });

  it('preserves every byte of random chunkings', async () => {
    const data = Buffer.from(Array.from({ length: 10_000 }, (_, i) => (i * 7919) % 256));
    for (const size of [1, 3, 1000, 4096, 20_000]) {
      const chunks: Buffer[] = [];
      for (let at = 0, n = 1; at < data.length; at += n, n = (n * 31 + 17) % 2000 || 1)
        chunks.push(data.subarray(at, at + n));
      const parts = await collect(chunks, size);
      expect(Buffer.concat(parts).equals(data)).toBe(true);
      expect(parts.slice(0, -1).every((p) => p.length === size)).toBe(true);
      expect(parts.at(-1)!.length).toBeGreaterThan(0);
    }
  });

  it('refuses a part size that is not a positive integer', async () => {
    await expect(collect(['a'], 0)).rejects.toThrow(RangeError);
  });
});

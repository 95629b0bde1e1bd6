import { Readable } from 'node:stream';
import { readTar, TarPiece } from './tar-reader';
import { parseTarHeader, tarEnd, tarHeader, tarPadding } from './tar';

const archive = (files: Record<string, Buffer>) =>
  Buffer.concat([
    ...Object.entries(files).flatMap(([path, bytes]) => [
      tarHeader({ path, size: bytes.length }),
      bytes,
      tarPadding(bytes.length),
    ]),
    tarEnd(),
  ]);

/** The files read back, the archive cut into chunks of `chunk` bytes. */
async function readBack(bytes: Buffer, chunk: number): Promise<Record<string, string>> {
  const chunks = Array.from({ length: Math.ceil(bytes.length / chunk) }, (_, i) =>
    bytes.subarray(i * chunk, (i + 1) * chunk),
  );
  const files: Record<string, string> = {};
  let current = '';
  for await (const piece of readTar(Readable.from(chunks)) as AsyncGenerator<TarPiece>) {
    if ('start' in piece) files[(current = piece.start.path)] = '';
    else if ('bytes' in piece) files[current] += piece.bytes.toString('latin1');
  }
  return files;
}

describe('tar', () => {
  const files = {
    'manifest.json': Buffer.from('{"format":1}'),
    'clickhouse/events.native': Buffer.alloc(1500, 7),
    empty: Buffer.alloc(0),
    [`objects/${'a'.repeat(90)}/${'b'.repeat(90)}.parquet`]: Buffer.from('PAR1'),
  };
  const expected = Object.fromEntries(Object.entries(files).map(([path, bytes]) => [path, bytes.toString('latin1')]));

  it.each([1, 7, 512, 513, 100_000])('reads back what it wrote, in chunks of %i bytes', async (chunk) => {
    expect(await readBack(archive(files), chunk)).toEqual(expected);
  });

  it('writes headers that tar tools read: ustar magic, octal size, a valid checksum', () => {
    const header = tarHeader({ path: 'postgres/data-dir.tar.gz', size: 1234 });
    expect(header.toString('latin1', 257, 262)).toBe('ustar');
    expect(header.toString('latin1', 124, 135)).toBe((1234).toString(8).padStart(11, '0'));
    expect(parseTarHeader(header)).toEqual({ path: 'postgres/data-dir.tar.gz', size: 1234 });
  });

  it('refuses a damaged header and an archive cut off before its end', async () => {
    const damaged = archive(files);
    damaged[3] ^= 1;
    await expect(readBack(damaged, 4096)).rejects.toThrow('checksum');
    const whole = archive(files);
    await expect(readBack(whole.subarray(0, whole.length - 1024 - 100), 4096)).rejects.toThrow('cut off');
  });

  it('refuses a path no ustar header can hold', () => {
    expect(() => tarHeader({ path: 'x'.repeat(300), size: 1 })).toThrow('too long');
  });
});

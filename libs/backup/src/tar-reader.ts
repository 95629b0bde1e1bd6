import { parseTarHeader, TAR_BLOCK, TarEntry } from './tar';

/** A file's start, a piece of its bytes (in order), or its end. */
export type TarPiece = { start: TarEntry } | { bytes: Buffer } | { end: TarEntry };

/**
 * Reads a tar stream as it arrives, holding at most one incoming chunk and one header: a file's bytes are passed
 * on as they come. An archive that stops before its end blocks is refused (a cut-off download or upload).
 */
export async function* readTar(source: AsyncIterable<Buffer>): AsyncGenerator<TarPiece> {
  let pending: Buffer = Buffer.alloc(0);
  let entry: TarEntry | undefined;
  let left = 0;
  let skip = 0;
  for await (const chunk of source) {
    pending = pending.length ? Buffer.concat([pending, chunk]) : chunk;
    for (;;) {
      if (entry) {
        const take = Math.min(left, pending.length);
        if (take > 0) yield { bytes: pending.subarray(0, take) };
        pending = pending.subarray(take);
        left -= take;
        if (left > 0) break;
        yield { end: entry };
        entry = undefined;
      }
      const drop = Math.min(skip, pending.length);
      pending = pending.subarray(drop);
      skip -= drop;
      if (skip > 0 || pending.length < TAR_BLOCK) break;
      const header = parseTarHeader(pending.subarray(0, TAR_BLOCK));
      pending = pending.subarray(TAR_BLOCK);
      if (!header) return;
      entry = header;
      left = header.size;
      skip = (TAR_BLOCK - (header.size % TAR_BLOCK)) % TAR_BLOCK;
      yield { start: header };
    }
  }
  throw new Error('the backup ends early: it was cut off before its last file');
}

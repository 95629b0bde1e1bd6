/**
 * Joins a batch's message values into one Buffer for the insert, in the same memory batch after
 * batch, instead of a fresh Buffer of up to 16 MiB per insert: the writer's Buffers count towards
 * V8's heap limit and kept starting full GCs (docs/benchmarks/2026-11-25-issue-21-second-pass.md), and this
 * was a third of their bytes. Only for one insert at a time: each join overwrites the bytes of the one
 * before, so the caller must have finished with them (chDB reads the Buffer until its insert settles).
 */
export class JoinBuffer {
  private buffer = Buffer.alloc(0);

  join(values: readonly Buffer[]): Buffer {
    let size = 0;
    for (const value of values) size += value.length;
    // Grows to the largest batch seen (bounded by WRITER_MAX_BATCH_BYTES plus one fetch) and stays.
    if (size > this.buffer.length) this.buffer = Buffer.allocUnsafe(size);
    let offset = 0;
    for (const value of values) offset += value.copy(this.buffer, offset);
    return this.buffer.subarray(0, size);
  }
}

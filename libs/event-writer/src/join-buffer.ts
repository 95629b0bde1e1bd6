/**
 * Joins a batch's message values into one Buffer for the insert, in the same memory batch after
 * batch. A fresh Buffer per insert (16 MiB at full rate) counts towards V8's heap limit as external
 * memory: with the writer's heap of ~50 MB it started a full GC about every second, which cost more
 * of the writer's thread than anything it does per row (docs/benchmarks.md, "Issue 21 — writer,
 * second pass"). Only for one insert at a time: each join overwrites the bytes of the one before,
 * so the caller must have finished with them (chDB reads the Buffer until its insert settles).
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

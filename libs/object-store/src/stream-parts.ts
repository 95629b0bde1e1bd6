/**
 * Cuts a byte stream into parts of exactly `size` bytes (the last one shorter, never empty),
 * holding at most one part plus one incoming chunk: the shape of an S3 multipart upload.
 */
export async function* streamParts(
  source: AsyncIterable<Buffer | Uint8Array | string>,
  size: number,
): AsyncGenerator<Buffer> {
  if (!Number.isInteger(size) || size < 1) throw new RangeError(`part size must be a positive integer, got ${size}`);
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  for await (const chunk of source) {
    let bytes =
      typeof chunk === 'string'
        ? Buffer.from(chunk)
        : Buffer.isBuffer(chunk)
          ? chunk
          : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    while (pendingBytes + bytes.length >= size) {
      const take = size - pendingBytes;
      pending.push(bytes.subarray(0, take));
      yield Buffer.concat(pending, size);
      bytes = bytes.subarray(take);
      pending = [];
      pendingBytes = 0;
    }
    if (bytes.length > 0) {
      pending.push(bytes);
      pendingBytes += bytes.length;
    }
  }
  if (pendingBytes > 0) yield Buffer.concat(pending, pendingBytes);
}

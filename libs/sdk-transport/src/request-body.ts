import type { IncomingMessage } from 'node:http';
import { Readable } from 'node:stream';
import { createGunzip, createInflate } from 'node:zlib';

import { IngestError } from './ingest-errors';

/** The real API's wording, which its clients match to split a batch and retry (the limit is measured after decompression). */
export class BodyTooLargeError extends IngestError {
  constructor(readonly limit: number) {
    super(413, `request exceeds max limit of ${limit} bytes`);
  }
}

export class BadBodyError extends IngestError {
  constructor(message: string) {
    super(400, message);
  }
}

function decoderFor(encoding: string | undefined): NodeJS.ReadWriteStream | undefined {
  const value = (encoding ?? '').trim().toLowerCase();
  // Some bulk importers send an empty Content-Encoding on plain bodies.
  if (value === '' || value === 'identity') return undefined;
  if (value === 'gzip' || value === 'x-gzip') return createGunzip();
  if (value === 'deflate') return createInflate();
  throw new BadBodyError(`unsupported Content-Encoding "${encoding}": send gzip or nothing`);
}

/**
 * Reads the body, decompressing as it goes and stopping as soon as the decompressed size passes
 * the limit: an oversize body or a gzip bomb is cut off early and never held whole in memory.
 */
export async function readRequestBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  const decoder = decoderFor(req.headers['content-encoding']);
  const declared = Number(req.headers['content-length']);
  if (!decoder && declared > limit) throw new BodyTooLargeError(limit);
  const source: Readable = decoder ? (req.pipe(decoder) as unknown as Readable) : req;
  if (decoder) req.on('error', (error) => (decoder as unknown as Readable).destroy(error));
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of source) {
      size += (chunk as Buffer).length;
      if (size > limit) throw new BodyTooLargeError(limit);
      chunks.push(chunk as Buffer);
    }
  } catch (error) {
    req.unpipe();
    (source as Readable).destroy();
    if (error instanceof BodyTooLargeError) throw error;
    if (decoder) throw new BadBodyError('request body is not valid gzip data');
    throw error;
  }
  return Buffer.concat(chunks, size);
}

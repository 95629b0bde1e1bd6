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

/** EF BB BF: the UTF-8 byte-order mark some tools (Windows editors, PowerShell) write before text. */
const UTF8_BOM = Buffer.from([0xef, 0xbb, 0xbf]);

/**
 * Reads the body, decompressing as it goes and stopping as soon as the decompressed size passes
 * the limit: an oversize body or a gzip bomb is cut off early and never held whole in memory. A
 * leading byte-order mark is dropped: JSON.parse refuses it, and it says nothing UTF-8 needs.
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
  const body = Buffer.concat(chunks, size);
  return body.subarray(0, UTF8_BOM.length).equals(UTF8_BOM) ? body.subarray(UTF8_BOM.length) : body;
}

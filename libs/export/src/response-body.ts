import { PassThrough, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';

export interface ResponseBody {
  /** What the export writes its lines to. */
  body: PassThrough;
  /** Settles when the response is done: with the error that cut it, if one did. Never rejects. */
  sent: Promise<Error | undefined>;
}

/**
 * The export's body piped into the response, gzipped when asked. `sent` settles at once instead of
 * rejecting: a client that hangs up mid-export cuts the pipe while the export is still writing, and
 * a rejection nobody awaited yet would stop the whole process.
 */
export function responseBody(response: Writable, gzip: boolean): ResponseBody {
  const body = new PassThrough();
  const piped = gzip ? pipeline(body, createGzip(), response) : pipeline(body, response);
  const sent = piped.then(
    () => undefined,
    (error: unknown) => error as Error,
  );
  return { body, sent };
}

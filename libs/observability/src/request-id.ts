import type { IncomingMessage, ServerResponse } from 'node:http';
import { randomUUID } from 'node:crypto';

export const REQUEST_ID_HEADER = 'x-request-id';
const ACCEPTABLE = /^[A-Za-z0-9._:-]{1,128}$/;

/** Keeps a caller's request id when it is sane, otherwise makes one; echoed on the response. */
export function requestId(req: IncomingMessage, res: ServerResponse): string {
  const given = req.headers[REQUEST_ID_HEADER];
  const id = typeof given === 'string' && ACCEPTABLE.test(given) ? given : randomUUID();
  res.setHeader(REQUEST_ID_HEADER, id);
  return id;
}

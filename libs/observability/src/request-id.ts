import { IdSource } from '@analytics/clock';
import type { IncomingMessage, ServerResponse } from 'node:http';

export const REQUEST_ID_HEADER = 'x-request-id';
const ACCEPTABLE = /^[A-Za-z0-9._:-]{1,128}$/;

/** Keeps a caller's request id when it is sane, otherwise makes one from `ids`; echoed on the response. */
export function requestIds(ids: IdSource): (req: IncomingMessage, res: ServerResponse) => string {
  return (req, res) => {
    const given = req.headers[REQUEST_ID_HEADER];
    const id = typeof given === 'string' && ACCEPTABLE.test(given) ? given : ids.uuid();
    res.setHeader(REQUEST_ID_HEADER, id);
    return id;
  };
}

import type { Request, Response } from 'express';
import { Reply } from './sdk-replies';

export function send(res: Response, reply: Reply): void {
  // Answered before the body was read to its end (oversize, refused early): the rest of it would
  // hold the connection, so close it rather than leave a keep-alive client waiting behind it.
  if (!res.req.complete) res.set('Connection', 'close');
  res
    .status(reply.status)
    .set(reply.headers ?? {})
    .type(reply.contentType)
    .send(reply.body);
}

export function queryOf(req: Request): URLSearchParams {
  return new URL(req.originalUrl, 'http://local').searchParams;
}

export const flag = (fields: URLSearchParams, name: string) => fields.get(name) === '1' || fields.get(name) === 'true';

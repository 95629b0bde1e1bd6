import type { Request, Response } from 'express';
import { Reply } from './sdk-replies';

export function send(res: Response, reply: Reply): void {
  res.status(reply.status).set(reply.headers ?? {}).type(reply.contentType).send(reply.body);
}

export function queryOf(req: Request): URLSearchParams {
  return new URL(req.originalUrl, 'http://local').searchParams;
}

export const flag = (fields: URLSearchParams, name: string) => fields.get(name) === '1' || fields.get(name) === 'true';

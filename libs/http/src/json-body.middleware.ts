import { json, urlencoded } from 'express';
import type { NextFunction, Request, Response } from 'express';
import { ApiFamily, errorBody } from './api-family';

const parseJson = json({ limit: '1mb' });
const parseForm = urlencoded({ extended: false, limit: '1mb' });

/** Deeper than any body of the API; validation and transformation recurse, so a deeper one could exhaust the stack. */
export const MAX_BODY_DEPTH = 64;

/** How deep arrays and objects nest in a parsed body, counted without recursion (the input may be hostile). */
export function nestingDepth(value: unknown, stopAt = Infinity): number {
  let deepest = 0;
  const pending: [unknown, number][] = [[value, 0]];
  while (pending.length) {
    const [current, depth] = pending.pop()!;
    if (current === null || typeof current !== 'object') continue;
    deepest = Math.max(deepest, depth + 1);
    if (deepest > stopAt) return deepest;
    for (const child of Object.values(current)) pending.push([child, depth + 1]);
  }
  return deepest;
}

function bodyError(family: ApiFamily, req: Request, res: Response, error: { status?: number; type?: string }): void {
  const status = error.status === 413 ? 413 : 400;
  const message = status === 413 ? 'request body is larger than 1 MB' : 'request body is not valid JSON or form data';
  res.status(status).json(errorBody(family, req, message));
}

function checkDepth(family: ApiFamily, req: Request, res: Response, next: NextFunction): void {
  if (nestingDepth(req.body, MAX_BODY_DEPTH) > MAX_BODY_DEPTH) {
    res.status(400).json(errorBody(family, req, `request body nests deeper than ${MAX_BODY_DEPTH} levels`));
    return;
  }
  next();
}

/**
 * JSON and form bodies for the app and query APIs (the app is built without a global body parser,
 * since ingestion streams raw bodies). A malformed or too deeply nested body is answered in the
 * family's error shape.
 */
export function jsonBody(family: ApiFamily) {
  return (req: Request, res: Response, next: NextFunction): void => {
    const fail = (error: unknown) => bodyError(family, req, res, error as { status?: number });
    const checked = () => checkDepth(family, req, res, next);
    parseJson(req, res, (error?: unknown) =>
      error ? fail(error) : parseForm(req, res, (e?: unknown) => (e ? fail(e) : checked())),
    );
  };
}

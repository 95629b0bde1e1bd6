import { json, urlencoded } from 'express';
import type { NextFunction, Request, Response } from 'express';
import { ApiFamily, errorBody } from './api-family';

const parseJson = json({ limit: '1mb' });
const parseForm = urlencoded({ extended: false, limit: '1mb' });

function bodyError(family: ApiFamily, req: Request, res: Response, error: { status?: number; type?: string }): void {
  const status = error.status === 413 ? 413 : 400;
  const message = status === 413 ? 'request body is larger than 1 MB' : 'request body is not valid JSON or form data';
  res.status(status).json(errorBody(family, req, message));
}

/**
 * JSON and form bodies for the app and query APIs (the app is built without a global body parser,
 * since ingestion streams raw bodies). A malformed body is answered in the family's error shape.
 */
export function jsonBody(family: ApiFamily) {
  return (req: Request, res: Response, next: NextFunction): void => {
    const fail = (error: unknown) => bodyError(family, req, res, error as { status?: number });
    parseJson(req, res, (error?: unknown) => (error ? fail(error) : parseForm(req, res, (e?: unknown) => (e ? fail(e) : next()))));
  };
}

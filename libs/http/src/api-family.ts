import type { Request } from 'express';

/**
 * The HTTP API families, each with its own error body: the app API (/api/app, and /api/shared: shared
 * boards read without an account), the reading APIs
 * (/api/query, /api/2.0) and ingestion with everything else (/track, /import, /engage, /groups, …).
 */
export type ApiFamily = 'app' | 'query' | 'ingest';

/** Both prefixes the real API answers its reading endpoints under. */
export const QUERY_API_PREFIXES = ['api/query', 'api/2.0'];

const under = (path: string, prefix: string) => path === prefix || path.startsWith(`${prefix}/`);

/** The family a request path belongs to, by its prefix. */
export function apiFamilyOf(path: string): ApiFamily {
  if (under(path, '/api/app') || under(path, '/api/shared')) return 'app';
  if (QUERY_API_PREFIXES.some((prefix) => under(path, `/${prefix}`))) return 'query';
  return 'ingest';
}

/**
 * A failure in the family's shape: `{"status":"error","error"}` (app), `{"request","error"}` with
 * the path and query (query, export), `{"error","status":0}` as the SDK transport's verbose answer.
 */
export function errorBody(family: ApiFamily, req: Request, message: string): object {
  if (family === 'app') return { status: 'error', error: message };
  if (family === 'query') return { request: req.originalUrl, error: message };
  return { error: message, status: 0 };
}

import { ArgumentsHost, Catch, ExceptionFilter, NotFoundException } from '@nestjs/common';
import type { Request, Response } from 'express';
import { apiFamilyOf, errorBody } from './api-family';

/** The slice of Express's router that says which methods a path has routes for. */
interface RouteLayer {
  route?: { methods: Record<string, boolean | undefined> };
  match(path: string): unknown;
}

const handles = (methods: Record<string, boolean | undefined>, method: string) =>
  Boolean(methods._all || methods[method.toLowerCase()] || (method === 'HEAD' && methods.get));

/**
 * The methods this path has handlers for (HEAD wherever GET is, as Express answers it). A route
 * that takes the request's own method is a middleware's (logging mounts one for every method and
 * path), since no handler took the request; it says nothing about the path.
 */
function allowedMethods(req: Request): string[] {
  const stack = (req.app as unknown as { router?: { stack?: RouteLayer[] } }).router?.stack ?? [];
  const methods = new Set<string>();
  for (const layer of stack) {
    const { route } = layer;
    if (!route || handles(route.methods, req.method) || !layer.match(req.path)) continue;
    for (const [method, handled] of Object.entries(route.methods)) if (handled) methods.add(method.toUpperCase());
  }
  if (methods.has('GET')) methods.add('HEAD');
  return [...methods].sort();
}

/** Nest's answer when no route takes a request: a NotFoundException with exactly this message. */
const isUnmatched = (error: NotFoundException, req: Request) =>
  error.message === `Cannot ${req.method} ${req.originalUrl}`;

/**
 * A request no route took, answered in its path's family shape instead of Nest's default body: 404,
 * or 405 with `Allow` when the path exists under other methods (an OPTIONS there gets 204 and `Allow`).
 * Global, so every service has it; the families' own filters still answer their controllers' errors.
 */
@Catch(NotFoundException)
export class UnknownRouteFilter implements ExceptionFilter {
  catch(error: NotFoundException, host: ArgumentsHost): void {
    const req = host.switchToHttp().getRequest<Request>();
    const res = host.switchToHttp().getResponse<Response>();
    const family = apiFamilyOf(req.path);
    // A handler's own 404 (one with no family filter), worded in the family shape.
    if (!isUnmatched(error, req)) return void res.status(404).json(errorBody(family, req, error.message));
    const allowed = allowedMethods(req);
    if (!allowed.length)
      return void res.status(404).json(errorBody(family, req, `no such endpoint: ${req.method} ${req.path}`));
    res.setHeader('Allow', allowed.join(', '));
    if (req.method === 'OPTIONS') return void res.status(204).end();
    res
      .status(405)
      .json(errorBody(family, req, `${req.method} is not allowed on ${req.path}; use ${allowed.join(', ')}`));
  }
}

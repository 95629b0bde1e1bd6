import { ArgumentsHost, Catch, ExceptionFilter, NotFoundException } from '@nestjs/common';
import type { Request, Response } from 'express';
import { apiFamilyOf, errorBody } from './api-family';

/** The slice of Express's router that says which methods a path has routes for. */
interface RouteLayer {
  route?: { methods: Record<string, boolean | undefined> };
  match(path: string): unknown;
}

/** The methods the app has routes for at this path (HEAD wherever GET is, as Express answers it). */
function allowedMethods(req: Request): string[] {
  const stack = (req.app as unknown as { router?: { stack?: RouteLayer[] } }).router?.stack ?? [];
  const methods = new Set<string>();
  for (const layer of stack) {
    if (!layer.route || !layer.match(req.path)) continue;
    for (const [method, handled] of Object.entries(layer.route.methods)) if (handled && method !== '_all') methods.add(method.toUpperCase());
  }
  if (methods.has('GET')) methods.add('HEAD');
  return [...methods].sort();
}

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
    // A route did match: the 404 is its handler's own answer, not an unknown path.
    if (req.route) return void res.status(404).json(errorBody(family, req, error.message));
    const allowed = allowedMethods(req);
    if (!allowed.length) return void res.status(404).json(errorBody(family, req, `no such endpoint: ${req.method} ${req.path}`));
    res.setHeader('Allow', allowed.join(', '));
    if (req.method === 'OPTIONS') return void res.status(204).end();
    res.status(405).json(errorBody(family, req, `${req.method} is not allowed on ${req.path}; use ${allowed.join(', ')}`));
  }
}

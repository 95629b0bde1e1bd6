import { Injectable, NestMiddleware } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import { MetricsService } from './metrics.service';

/** The logger's and the unknown-route fallback's catch-all patterns (`{/*splat}`, `*path`): no route of ours. */
const CATCH_ALL = /^\{?\/?\*/;

/** Times every request; labels use the matched route pattern so paths with ids stay one series. */
@Injectable()
export class HttpMetricsMiddleware implements NestMiddleware {
  constructor(private readonly metrics: MetricsService) {}

  use(req: Request, res: Response, next: NextFunction): void {
    const end = this.metrics.httpRequestDuration.startTimer({ method: req.method });
    res.on('finish', () => {
      const route = (req.route as { path?: string } | undefined)?.path;
      end({
        route: route && !CATCH_ALL.test(route) ? `${req.baseUrl}${route}` : 'unmatched',
        status: String(res.statusCode),
      });
    });
    next();
  }
}

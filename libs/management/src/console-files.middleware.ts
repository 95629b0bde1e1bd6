import { Injectable, Logger, NestMiddleware } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import { join } from 'node:path';
import { consoleDirectory, consoleRequest } from './console-files';

/**
 * The console's own policy: scripts and styles from this origin only (ECharts and React set
 * inline styles), API calls to this origin, no framing.
 */
const CONTENT_SECURITY_POLICY =
  "default-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; frame-ancestors 'none'; base-uri 'none'; form-action 'self'";

/**
 * Serves the built console (GET and HEAD only): its pages answer index.html (never cached, so a new
 * build is picked up), its hashed assets are cached for a year. Every other request goes on to the
 * API's routes untouched.
 */
@Injectable()
export class ConsoleFilesMiddleware implements NestMiddleware {
  private readonly logger = new Logger('Console');
  private readonly directory = consoleDirectory();

  constructor() {
    if (!this.directory)
      this.logger.warn(
        'The web console is not built (dist/console/index.html is missing): run `npm run build` to serve it at /',
      );
  }

  use(req: Request, res: Response, next: NextFunction): void {
    const wanted = req.method === 'GET' || req.method === 'HEAD' ? consoleRequest(req.path) : undefined;
    if (!wanted || !this.directory) return next();
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.setHeader('Referrer-Policy', 'same-origin');
    if (wanted.kind === 'page') {
      res.setHeader('Content-Security-Policy', CONTENT_SECURITY_POLICY);
      res.setHeader('Cache-Control', 'no-cache');
      return res.sendFile(join(this.directory, 'index.html'));
    }
    res.sendFile(join(this.directory, 'assets', wanted.file), { maxAge: '365d', immutable: true }, (error?: Error) => {
      // An asset of another build (or none): the API's 404, not an HTML page.
      if (error && !res.headersSent) next();
    });
  }
}

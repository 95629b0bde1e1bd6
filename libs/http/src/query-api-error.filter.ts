import { ArgumentsHost, Catch, ExceptionFilter } from '@nestjs/common';
import type { Request, Response } from 'express';
import { errorStatus } from './error-status';

/** The reading APIs' error shape: `{"request": "<path?query>", "error": "<text>"}`. */
@Catch()
export class QueryApiErrorFilter implements ExceptionFilter {
  catch(error: unknown, host: ArgumentsHost): void {
    const req = host.switchToHttp().getRequest<Request>();
    const res = host.switchToHttp().getResponse<Response>();
    if (res.headersSent) {
      // Mid-stream: the status is gone; cutting the connection tells the client the body is incomplete.
      res.destroy();
      return;
    }
    const { status, message, retryAfterSeconds } = errorStatus(error, `${req.method} ${req.originalUrl}`);
    if (retryAfterSeconds) res.setHeader('Retry-After', String(retryAfterSeconds));
    res.status(status).json({ request: req.originalUrl, error: message });
  }
}

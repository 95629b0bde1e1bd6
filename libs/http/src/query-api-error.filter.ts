import { ArgumentsHost, Catch, ExceptionFilter, HttpException, Logger } from '@nestjs/common';
import type { Request, Response } from 'express';
import { QueryApiError } from './query-api-error';

/** Maps every failure of a reading API to its error shape; unexpected ones become a 500 that leaks nothing. */
@Catch()
export class QueryApiErrorFilter implements ExceptionFilter {
  private readonly logger = new Logger('QueryApi');

  catch(error: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const req = http.getRequest<Request>();
    const res = http.getResponse<Response>();
    if (res.headersSent) {
      // Mid-stream: the status is gone; cutting the connection tells the client the body is incomplete.
      res.destroy();
      return;
    }
    let status = 500;
    let message = 'internal error';
    if (error instanceof QueryApiError) {
      status = error.status;
      message = error.message;
      if (error.retryAfterSeconds) res.setHeader('Retry-After', String(error.retryAfterSeconds));
    } else if (error instanceof HttpException) {
      status = error.getStatus();
      message = error.message;
    } else {
      this.logger.error(`${req.method} ${req.originalUrl}: ${(error as Error).stack ?? String(error)}`);
    }
    res.status(status).json({ request: req.originalUrl, error: message });
  }
}

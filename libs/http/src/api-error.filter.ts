import { ArgumentsHost, Catch, ExceptionFilter } from '@nestjs/common';
import type { Request, Response } from 'express';
import { ApiFamily, errorBody } from './api-family';
import { errorStatus } from './error-status';

/** Any failure of a family's controller, answered in that family's error shape (see {@link errorBody}). */
@Catch()
export class ApiErrorFilter implements ExceptionFilter {
  constructor(private readonly family: ApiFamily) {}

  catch(error: unknown, host: ArgumentsHost): void {
    const req = host.switchToHttp().getRequest<Request>();
    const res = host.switchToHttp().getResponse<Response>();
    if (res.headersSent) {
      // Mid-stream (an export): the status is gone; cutting the connection tells the client the body is incomplete.
      res.destroy();
      return;
    }
    const { status, message, retryAfterSeconds } = errorStatus(error, `${req.method} ${req.originalUrl}`);
    if (retryAfterSeconds) res.setHeader('Retry-After', String(retryAfterSeconds));
    res.status(status).json(errorBody(this.family, req, message));
  }
}

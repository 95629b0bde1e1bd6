import { ArgumentsHost, Catch, ExceptionFilter } from '@nestjs/common';
import type { Request, Response } from 'express';
import { errorStatus } from './error-status';

/** The app API's error shape: `{"status": "error", "error": "<text>"}`. */
@Catch()
export class AppApiErrorFilter implements ExceptionFilter {
  catch(error: unknown, host: ArgumentsHost): void {
    const req = host.switchToHttp().getRequest<Request>();
    const res = host.switchToHttp().getResponse<Response>();
    const { status, message, retryAfterSeconds } = errorStatus(error, `${req.method} ${req.originalUrl}`);
    if (retryAfterSeconds) res.setHeader('Retry-After', String(retryAfterSeconds));
    res.status(status).json({ status: 'error', error: message });
  }
}

import { AccessDenied } from '@analytics/auth';
import { BadRequestException, HttpException, Logger } from '@nestjs/common';
import { AppApiError } from './app-api-error';
import { QueryApiError } from './query-api-error';

export interface ErrorStatus {
  status: number;
  message: string;
  retryAfterSeconds?: number;
}

const logger = new Logger('ApiError');

/** What any failure means over HTTP; unexpected errors become a 500 that leaks nothing (and are logged). */
export function errorStatus(error: unknown, where: string): ErrorStatus {
  if (error instanceof QueryApiError || error instanceof AppApiError) {
    return { status: error.status, message: error.message, retryAfterSeconds: error.retryAfterSeconds };
  }
  if (error instanceof AccessDenied) return { status: error.status, message: error.message };
  if (error instanceof BadRequestException) {
    const response = error.getResponse() as { message?: string | string[] };
    const message = Array.isArray(response.message) ? response.message.join('; ') : (response.message ?? error.message);
    return { status: 400, message };
  }
  if (error instanceof HttpException) return { status: error.getStatus(), message: error.message };
  logger.error(`${where}: ${(error as Error)?.stack ?? String(error)}`);
  return { status: 500, message: 'internal error' };
}

import { BadRequestException, HttpException, Logger } from '@nestjs/common';

export interface ErrorStatus {
  status: number;
  message: string;
  retryAfterSeconds?: number;
}

const logger = new Logger('ApiError');

/**
 * The domain libs' errors carry the HTTP status they mean (4xx, or 503 for an unavailable engine):
 * AccessDenied, AccountsError, QueryApiError, … They are recognised by that field, which keeps this
 * lib free of imports from the libs it serves.
 */
function declaredStatus(error: unknown): ErrorStatus | undefined {
  if (!(error instanceof Error)) return undefined;
  const { status, retryAfterSeconds } = error as Error & { status?: unknown; retryAfterSeconds?: number };
  if (typeof status !== 'number' || !((status >= 400 && status < 500) || status === 503)) return undefined;
  return { status, message: error.message, retryAfterSeconds };
}

/** What any failure means over HTTP; unexpected errors become a 500 that leaks nothing (and are logged). */
export function errorStatus(error: unknown, where: string): ErrorStatus {
  if (error instanceof BadRequestException) {
    const response = error.getResponse() as { message?: string | string[] };
    const message = Array.isArray(response.message) ? response.message.join('; ') : (response.message ?? error.message);
    return { status: 400, message };
  }
  if (error instanceof HttpException) return { status: error.getStatus(), message: error.message };
  const declared = declaredStatus(error);
  if (declared) return declared;
  logger.error(`${where}: ${(error as Error)?.stack ?? String(error)}`);
  return { status: 500, message: 'internal error' };
}

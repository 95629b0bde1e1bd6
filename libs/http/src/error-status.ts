import {
  CLICKHOUSE_MEMORY_LIMIT_EXCEEDED,
  CLICKHOUSE_TIMEOUT_EXCEEDED,
  clickHouseErrorCode,
} from '@analytics/clickhouse';
import { DomainError } from '@analytics/errors';
import { isRefusedValue } from '@analytics/postgres';
import { BadRequestException, HttpException, Logger } from '@nestjs/common';

export interface ErrorStatus {
  status: number;
  message: string;
  retryAfterSeconds?: number;
}

const logger = new Logger('ApiError');

/** An error's stack and its causes' messages: Drizzle's "Failed query" holds the SQL, its cause what the engine said. */
function describeWithCauses(error: unknown): string {
  const lines = [(error as Error)?.stack ?? String(error)];
  for (let cause = (error as { cause?: unknown })?.cause; cause; cause = (cause as { cause?: unknown }).cause) {
    lines.push(`caused by: ${(cause as Error).message ?? String(cause)}`);
  }
  return lines.join('\n');
}

/**
 * What any failure means over HTTP: a DomainError answers with its status (the libs' codes map to
 * 4xx, or 503 for an unavailable engine); a query past its time limit is the caller's to narrow (400);
 * unexpected errors become a 500 that leaks nothing (and are logged).
 */
export function errorStatus(error: unknown, where: string): ErrorStatus {
  if (error instanceof BadRequestException) {
    const response = error.getResponse() as { message?: string | string[] };
    const message = Array.isArray(response.message) ? response.message.join('; ') : (response.message ?? error.message);
    return { status: 400, message };
  }
  if (error instanceof HttpException) return { status: error.getStatus(), message: error.message };
  if (isDomainError(error))
    return { status: error.status, message: error.message, retryAfterSeconds: error.retryAfterSeconds };
  // A value no text or number column can hold (NUL, out of range): the request's, not the store's, fault.
  if (isRefusedValue(error))
    return {
      status: 400,
      message: 'a value in the request cannot be stored (a NUL character, or a number out of range)',
    };
  if (clickHouseErrorCode(error) === CLICKHOUSE_TIMEOUT_EXCEEDED) {
    return {
      status: 400,
      message: 'the query ran past its time limit (QUERY_MAX_EXECUTION_SECONDS): narrow the date range or the filters',
    };
  }
  if (clickHouseErrorCode(error) === CLICKHOUSE_MEMORY_LIMIT_EXCEEDED) {
    return {
      status: 400,
      message: 'the query needs more memory than its limit (QUERY_MAX_MEMORY_MB): narrow the date range or the filters',
    };
  }
  logger.error(`${where}: ${describeWithCauses(error)}`);
  return { status: 500, message: 'internal error' };
}

/** `instanceof` alone would type the code and status as `any` (the class is generic). */
function isDomainError(error: unknown): error is DomainError {
  return error instanceof DomainError;
}

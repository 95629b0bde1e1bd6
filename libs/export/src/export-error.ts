import { domainErrorOf } from '@analytics/errors';

/** Why a raw export was refused; the query-family filter answers with each code's status. */
export enum ExportErrorCode {
  /** A parameter is missing or malformed (dates, event list, limit, flags, `where`). */
  InvalidParameter = 'invalid_parameter',
  /** The project is over its export limits; `retryAfterSeconds` says when to try again. */
  RateLimited = 'rate_limited',
  /** The server is stopping (SIGTERM) and takes no new export; `retryAfterSeconds` says when to try again. */
  ShuttingDown = 'shutting_down',
}

const STATUS: Readonly<Record<ExportErrorCode, 400 | 429 | 503>> = {
  [ExportErrorCode.InvalidParameter]: 400,
  [ExportErrorCode.RateLimited]: 429,
  [ExportErrorCode.ShuttingDown]: 503,
};

export class ExportError extends domainErrorOf(STATUS) {}

export const invalidParameter = (message: string) => new ExportError(ExportErrorCode.InvalidParameter, message);

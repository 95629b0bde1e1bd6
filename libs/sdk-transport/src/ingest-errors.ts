import { domainErrorByStatus } from '@analytics/errors';

export enum IngestErrorCode {
  InvalidRequest = 'invalid_request',
  Unauthenticated = 'unauthenticated',
  Forbidden = 'forbidden',
  TooLarge = 'too_large',
  RateLimited = 'rate_limited',
  /** The bus (or the in-process writer) cannot take the batch now; retry after `retryAfterSeconds`. */
  Unavailable = 'unavailable',
}

/**
 * Failures of a whole ingestion request. The ingestion controllers answer them themselves, in the
 * strict /import shape or the SDK transport's, which keys on the status.
 */
export class IngestError extends domainErrorByStatus({
  400: IngestErrorCode.InvalidRequest,
  401: IngestErrorCode.Unauthenticated,
  403: IngestErrorCode.Forbidden,
  413: IngestErrorCode.TooLarge,
  429: IngestErrorCode.RateLimited,
  503: IngestErrorCode.Unavailable,
}) {}

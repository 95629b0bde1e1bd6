import { domainErrorByStatus } from '@analytics/errors';

export enum RateLimitErrorCode {
  /** Over a limit; `retryAfterSeconds` says when to try again (429). */
  RateLimited = 'rate_limited',
}

/** A request over one of the limits of this lib; each API family's filter answers 429 with Retry-After. */
export class RateLimitError extends domainErrorByStatus({ 429: RateLimitErrorCode.RateLimited }) {}

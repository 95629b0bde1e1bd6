import { domainErrorOf } from '@analytics/errors';

/** Why a compliance request was refused; the app API filter answers with each code's status. */
export enum ComplianceErrorCode {
  /** The body is missing or malformed (distinct ids, compliance or disclosure type). */
  InvalidRequest = 'invalid_request',
  /** The project token names no project. */
  UnknownProject = 'unknown_project',
  /** No such job in this project. */
  NotFound = 'not_found',
  /** The job has started or finished: it can no longer be cancelled. */
  NotCancellable = 'not_cancellable',
  /** More than one create request per second for the project; `retryAfterSeconds` says when. */
  RateLimited = 'rate_limited',
}

const STATUS: Readonly<Record<ComplianceErrorCode, 400 | 404 | 405 | 429>> = {
  [ComplianceErrorCode.InvalidRequest]: 400,
  [ComplianceErrorCode.UnknownProject]: 400,
  [ComplianceErrorCode.NotFound]: 404,
  [ComplianceErrorCode.NotCancellable]: 405,
  [ComplianceErrorCode.RateLimited]: 429,
};

export class ComplianceError extends domainErrorOf(STATUS) {}

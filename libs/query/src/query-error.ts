import { domainErrorOf } from '@analytics/errors';

/** Why a query was refused; each code carries the HTTP status the query API answers with. */
export enum QueryErrorCode {
  /** A parameter is missing or malformed. */
  InvalidParameter = 'invalid_parameter',
  /** A `where` / `on` expression does not parse or reads what the query has no source for. */
  InvalidExpression = 'invalid_expression',
  /** The saved report (funnel, bookmark, cohort) does not exist in this project. */
  UnknownReport = 'unknown_report',
  /** The answer would be too large (too many buckets or values). */
  TooLarge = 'too_large',
  /** What the query needs is not available in this deployment (e.g. profiles). */
  Unavailable = 'unavailable',
}

const STATUS: Readonly<Record<QueryErrorCode, 400 | 404 | 503>> = {
  [QueryErrorCode.InvalidParameter]: 400,
  [QueryErrorCode.InvalidExpression]: 400,
  [QueryErrorCode.UnknownReport]: 404,
  [QueryErrorCode.TooLarge]: 400,
  [QueryErrorCode.Unavailable]: 503,
};

/** A refused query; libs/http's query filter answers with its code's status. */
export class QueryError extends domainErrorOf(STATUS) {}

export const invalidParameter = (message: string) => new QueryError(QueryErrorCode.InvalidParameter, message);

import { domainErrorOf } from '@analytics/errors';

/** The data dictionary's failures; the app error filter answers with each code's status (and `Retry-After`). */
export enum DictionaryErrorCode {
  InvalidSchema = 'invalid_schema',
  UnknownEntityType = 'unknown_entity_type',
  NotFound = 'not_found',
  RateLimited = 'rate_limited',
}

const STATUS: Record<DictionaryErrorCode, 400 | 404 | 429> = {
  [DictionaryErrorCode.InvalidSchema]: 400,
  [DictionaryErrorCode.UnknownEntityType]: 400,
  [DictionaryErrorCode.NotFound]: 404,
  [DictionaryErrorCode.RateLimited]: 429,
};

export class DictionaryError extends domainErrorOf(STATUS) {}

/** A schema that breaks a rule, named by where in the body it is. */
export const invalidSchema = (where: string, problem: string) =>
  new DictionaryError(DictionaryErrorCode.InvalidSchema, `${where}: ${problem}`);

import { domainErrorOf } from '@analytics/errors';

/** The annotation API's failures; the app error filter answers with each code's status. */
export enum AnnotationsErrorCode {
  InvalidDate = 'invalid_date',
  InvalidRange = 'invalid_range',
  UnknownTags = 'unknown_tags',
  NotFound = 'not_found',
}

const STATUS: Record<AnnotationsErrorCode, 400 | 404> = {
  [AnnotationsErrorCode.InvalidDate]: 400,
  [AnnotationsErrorCode.InvalidRange]: 400,
  [AnnotationsErrorCode.UnknownTags]: 400,
  [AnnotationsErrorCode.NotFound]: 404,
};

export class AnnotationsError extends domainErrorOf(STATUS) {}

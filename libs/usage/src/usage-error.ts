import { domainErrorOf } from '@analytics/errors';

/** The usage route's failures; the app error filter answers with each code's status. */
export enum UsageErrorCode {
  InvalidDate = 'invalid_date',
  InvalidRange = 'invalid_range',
}

const STATUS: Readonly<Record<UsageErrorCode, 400>> = {
  [UsageErrorCode.InvalidDate]: 400,
  [UsageErrorCode.InvalidRange]: 400,
};

export class UsageError extends domainErrorOf(STATUS) {}

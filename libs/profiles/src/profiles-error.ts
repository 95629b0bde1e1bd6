import { domainErrorOf } from '@analytics/errors';

/** The profile APIs' failures; the app and query error filters answer with each code's status. */
export enum ProfilesErrorCode {
  InvalidGroupKey = 'invalid_group_key',
  UnknownGroupKey = 'unknown_group_key',
  InvalidQuery = 'invalid_query',
  /** A parameter of the real API that is not offered (`behaviors`): refused rather than ignored. */
  NotSupported = 'not_supported',
}

const STATUS: Record<ProfilesErrorCode, 400 | 404> = {
  [ProfilesErrorCode.InvalidGroupKey]: 400,
  [ProfilesErrorCode.UnknownGroupKey]: 404,
  [ProfilesErrorCode.InvalidQuery]: 400,
  [ProfilesErrorCode.NotSupported]: 400,
};

export class ProfilesError extends domainErrorOf(STATUS) {}

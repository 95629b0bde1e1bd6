import { domainErrorOf } from '@analytics/errors';

/** The profile APIs' failures; the app and query error filters answer with each code's status. */
export enum ProfilesErrorCode {
  InvalidQuery = 'invalid_query',
  /** A parameter of the real API that is not offered (`behaviors`): refused rather than ignored. */
  NotSupported = 'not_supported',
}

const STATUS: Record<ProfilesErrorCode, 400> = {
  [ProfilesErrorCode.InvalidQuery]: 400,
  [ProfilesErrorCode.NotSupported]: 400,
};

export class ProfilesError extends domainErrorOf(STATUS) {}

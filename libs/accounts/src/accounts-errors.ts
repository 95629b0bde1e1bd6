import { domainErrorOf } from '@analytics/errors';

/** Failures of account rules; the app error filter answers with each code's status. */
export enum AccountsErrorCode {
  /** An expiry in the past, or an OAuth token lifetime out of range. */
  InvalidExpiry = 'invalid_expiry',
  UsernameTaken = 'username_taken',
  /** A project or service account named in the request belongs to another organization. */
  NotInOrganization = 'not_in_organization',
  NotFound = 'not_found',
  /** Granting a role above the caller's own (only owners make owners), or changing or deleting an account that holds one anywhere. */
  RoleAboveOwn = 'role_above_own',
  /** Deleting the organization's last unexpired owner, which nobody could replace. */
  LastOwner = 'last_owner',
}

const STATUS: Readonly<Record<AccountsErrorCode, 400 | 403 | 404 | 409>> = {
  [AccountsErrorCode.InvalidExpiry]: 400,
  [AccountsErrorCode.UsernameTaken]: 400,
  [AccountsErrorCode.NotInOrganization]: 400,
  [AccountsErrorCode.NotFound]: 404,
  [AccountsErrorCode.RoleAboveOwn]: 403,
  [AccountsErrorCode.LastOwner]: 409,
};

export class AccountsError extends domainErrorOf(STATUS) {}

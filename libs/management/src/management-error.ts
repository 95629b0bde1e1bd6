import { domainErrorOf } from '@analytics/errors';

/** Failures of the management routes themselves; account rules fail with AccountsError. */
export enum ManagementErrorCode {
  /** The project went away between the access check and the change (deleted meanwhile). */
  ProjectNotFound = 'project_not_found',
  /** `identity_merge` asked to change on a project that already holds events (docs/identity.md). */
  IdentityMergeLocked = 'identity_merge_locked',
  /** `timezone` names no zone that both Node and ClickHouse know (docs/queries.md, "Time zone"). */
  UnknownTimeZone = 'unknown_time_zone',
}

const STATUS: Readonly<Record<ManagementErrorCode, 400 | 404>> = {
  [ManagementErrorCode.ProjectNotFound]: 404,
  [ManagementErrorCode.IdentityMergeLocked]: 400,
  [ManagementErrorCode.UnknownTimeZone]: 400,
};

export class ManagementError extends domainErrorOf(STATUS) {}

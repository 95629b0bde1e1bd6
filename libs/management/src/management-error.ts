import { domainErrorOf } from '@analytics/errors';

/** Failures of the management routes themselves; account rules fail with AccountsError. */
export enum ManagementErrorCode {
  /** The project went away between the access check and the change (deleted meanwhile). */
  ProjectNotFound = 'project_not_found',
}

const STATUS: Readonly<Record<ManagementErrorCode, 404>> = {
  [ManagementErrorCode.ProjectNotFound]: 404,
};

export class ManagementError extends domainErrorOf(STATUS) {}

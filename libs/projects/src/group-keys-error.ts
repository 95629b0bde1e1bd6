import { domainErrorOf } from '@analytics/errors';

/** The group-key registry's failures (the same codes the profile APIs answered with before it moved here). */
export enum GroupKeysErrorCode {
  InvalidGroupKey = 'invalid_group_key',
  UnknownGroupKey = 'unknown_group_key',
}

const STATUS: Record<GroupKeysErrorCode, 400 | 404> = {
  [GroupKeysErrorCode.InvalidGroupKey]: 400,
  [GroupKeysErrorCode.UnknownGroupKey]: 404,
};

export class GroupKeysError extends domainErrorOf(STATUS) {}

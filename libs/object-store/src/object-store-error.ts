import { domainErrorOf } from '@analytics/errors';

/** The object store's failures; the app API's error filter answers with each code's status. */
export enum ObjectStoreErrorCode {
  InvalidKey = 'invalid_key',
  InvalidContentType = 'invalid_content_type',
  /** The local folder cannot hold both `a` and `a/b` (S3 can): a file stands where a folder must be, or the reverse. */
  KeyConflict = 'key_conflict',
  NotFound = 'not_found',
  InvalidLink = 'invalid_link',
  ExpiredLink = 'expired_link',
}

const STATUS: Readonly<Record<ObjectStoreErrorCode, 400 | 403 | 404 | 409>> = {
  [ObjectStoreErrorCode.InvalidKey]: 400,
  [ObjectStoreErrorCode.InvalidContentType]: 400,
  [ObjectStoreErrorCode.KeyConflict]: 409,
  [ObjectStoreErrorCode.NotFound]: 404,
  [ObjectStoreErrorCode.InvalidLink]: 403,
  [ObjectStoreErrorCode.ExpiredLink]: 403,
};

export class ObjectStoreError extends domainErrorOf(STATUS) {}

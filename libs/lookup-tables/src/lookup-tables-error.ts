import { domainErrorOf } from '@analytics/errors';

/** The lookup tables' failures; each API's filter answers with each code's status. */
export enum LookupTablesErrorCode {
  InvalidRequest = 'invalid_request',
  NotFound = 'not_found',
  MappingTaken = 'mapping_taken',
}

const STATUS: Record<LookupTablesErrorCode, 400 | 404 | 409> = {
  [LookupTablesErrorCode.InvalidRequest]: 400,
  [LookupTablesErrorCode.NotFound]: 404,
  [LookupTablesErrorCode.MappingTaken]: 409,
};

export class LookupTablesError extends domainErrorOf(STATUS) {}

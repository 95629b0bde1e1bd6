import { domainErrorOf } from '@analytics/errors';

/** The warehouse-import API's failures; the app error filter answers with each code's status. */
export enum WarehouseImportsErrorCode {
  Invalid = 'invalid_request',
  ConnectionFailed = 'connection_failed',
  NotFound = 'not_found',
  InUse = 'source_in_use',
  TooManyManualSyncs = 'too_many_manual_syncs',
}

const STATUS: Record<WarehouseImportsErrorCode, 400 | 404 | 409 | 429> = {
  [WarehouseImportsErrorCode.Invalid]: 400,
  [WarehouseImportsErrorCode.ConnectionFailed]: 400,
  [WarehouseImportsErrorCode.NotFound]: 404,
  [WarehouseImportsErrorCode.InUse]: 409,
  [WarehouseImportsErrorCode.TooManyManualSyncs]: 429,
};

export class WarehouseImportsError extends domainErrorOf(STATUS) {}

export const invalid = (message: string) => new WarehouseImportsError(WarehouseImportsErrorCode.Invalid, message);

import { domainErrorOf } from '@analytics/errors';

/** Why a saved-report request was refused; each code carries its HTTP status. */
export enum ReportsErrorCode {
  /** The definition breaks a rule (unknown unit, bad expression, window too long, …). */
  InvalidDefinition = 'invalid_definition',
  /** No such report in this project. */
  NotFound = 'not_found',
}

const STATUS: Readonly<Record<ReportsErrorCode, 400 | 404>> = {
  [ReportsErrorCode.InvalidDefinition]: 400,
  [ReportsErrorCode.NotFound]: 404,
};

/** A refused saved-report request; libs/http's filters answer with its code's status. */
export class ReportsError extends domainErrorOf(STATUS) {}

export const invalidDefinition = (message: string) => new ReportsError(ReportsErrorCode.InvalidDefinition, message);

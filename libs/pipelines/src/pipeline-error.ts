import { domainErrorOf } from '@analytics/errors';

/** Why a pipeline request was refused; the query-family filter answers with each code's status. */
export enum PipelineErrorCode {
  /** A field is missing or malformed; the message names it. */
  InvalidParameter = 'invalid_parameter',
  /** A live pipeline of the project already has the name the fields give. */
  DuplicateName = 'duplicate_name',
  /** No pipeline of that name in the project. */
  NotFound = 'not_found',
}

const STATUS: Readonly<Record<PipelineErrorCode, 400 | 404>> = {
  [PipelineErrorCode.InvalidParameter]: 400,
  [PipelineErrorCode.DuplicateName]: 400,
  [PipelineErrorCode.NotFound]: 404,
};

export class PipelineError extends domainErrorOf(STATUS) {}

export const invalidField = (field: string, message: string) =>
  new PipelineError(PipelineErrorCode.InvalidParameter, `${field}: ${message}`);

/** Why an expression was refused; callers map every code to their API's 400. */
export enum ExpressionErrorCode {
  /** Not a sentence of the grammar. */
  Syntax = 'syntax',
  /** Over one of the limits in `limits.ts`. */
  TooComplex = 'too_complex',
  /** Reads something this query has no source for, e.g. `user["x"]` where no profile is joined. */
  Unavailable = 'unavailable',
}

/** A refused expression. `position` is a 0-based offset into the expression text (UTF-16 units). */
export class ExpressionError extends Error {
  constructor(
    readonly position: number,
    readonly expected: string,
    readonly code: ExpressionErrorCode = ExpressionErrorCode.Syntax,
  ) {
    super(`at position ${position}: expected ${expected}`);
    this.name = 'ExpressionError';
  }
}

/** Failures of account rules, each with the HTTP status the app API answers with. */
export class AccountsError extends Error {
  constructor(
    readonly status: 400 | 404,
    message: string,
  ) {
    super(message);
  }
}

/** Bad request scope (400), no or bad credentials (401), or no right to this project or action (403). */
export class AccessDenied extends Error {
  constructor(
    readonly status: 400 | 401 | 403,
    message: string,
  ) {
    super(message);
  }
}

/** No or bad credentials (401), or credentials without the right to this project or action (403). */
export class AccessDenied extends Error {
  constructor(
    readonly status: 401 | 403,
    message: string,
  ) {
    super(message);
  }
}

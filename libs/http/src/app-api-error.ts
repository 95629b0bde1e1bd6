/** A failure of the app API (/api/app/...), answered as `{"status":"error","error":"<text>"}`. */
export class AppApiError extends Error {
  constructor(
    readonly status: 400 | 401 | 403 | 404 | 405 | 409 | 429,
    message: string,
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
  }
}

/** A failure of a reading API (query, export), answered as `{"request": "<path?query>", "error": "<text>"}`. */
export class QueryApiError extends Error {
  constructor(
    readonly status: 400 | 401 | 403 | 404 | 429 | 503,
    message: string,
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
  }
}

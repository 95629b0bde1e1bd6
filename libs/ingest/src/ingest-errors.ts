/** Failures of a whole ingestion request, mapped to status codes by the replies. */
export class IngestError extends Error {
  constructor(
    readonly status: 400 | 401 | 403 | 413 | 429 | 503,
    message: string,
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
  }
}

/**
 * A thrown value as an Error: itself when it is one; else an Error with its `message` (an RPC
 * exception's error object, say) or its text, so a log line or dead letter always reads.
 */
export const asError = (error: unknown): Error =>
  error instanceof Error
    ? error
    : new Error(typeof error === 'object' && error && 'message' in error ? String(error.message) : String(error));

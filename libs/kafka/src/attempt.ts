/**
 * What a failed write means for the message: `retry` when it passes (the engine is down, busy or
 * short of memory: the same write later succeeds), `dead-letter` when the message itself is at fault.
 */
export type FailureOutcome = 'retry' | 'dead-letter';
export type ClassifyFailure = (error: unknown) => FailureOutcome;

/** A write that was done, or that failed for a reason no retry fixes. */
export type Attempt<T> = { outcome: 'done'; value: T } | { outcome: 'dead-letter'; reason: string; code?: string };

/** Runs a write, retrying passing failures; the classifier defaults to the consumer's own. */
export type Attempter = <T>(run: () => Promise<T>, classify?: ClassifyFailure) => Promise<Attempt<T>>;

export interface RetryPolicy {
  classify: ClassifyFailure;
  /** Once true, a passing failure is thrown instead of retried (shutdown: the batch comes again). */
  stopping(): boolean;
  onRetry(error: unknown, attempt: number): void;
}

const MAX_BACKOFF_MS = 5_000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
export const backoffMs = (attempt: number) => Math.min(100 * 2 ** attempt, MAX_BACKOFF_MS);

/** The error's engine name or code: ClickHouse's `type` (or numeric `code`), a SQLSTATE, looking through `cause`. */
export function errorCode(error: unknown): string | undefined {
  for (let e = error as { type?: unknown; code?: unknown; cause?: unknown } | undefined; e; e = e.cause as typeof e) {
    if (typeof e.type === 'string' && e.type) return e.type;
    if ((typeof e.code === 'string' && e.code) || typeof e.code === 'number') return String(e.code);
  }
  return undefined;
}

/** Retries passing failures with backoff (100 ms to 5 s) for as long as it takes, unless stopping. */
export async function attemptWithRetries<T>(run: () => Promise<T>, policy: RetryPolicy): Promise<Attempt<T>> {
  for (let attempt = 0; ; attempt++) {
    try {
      return { outcome: 'done', value: await run() };
    } catch (error) {
      if (policy.classify(error) === 'dead-letter')
        return { outcome: 'dead-letter', reason: (error as Error).message ?? String(error), code: errorCode(error) };
      if (policy.stopping()) throw error;
      policy.onRetry(error, attempt);
      await sleep(backoffMs(attempt));
    }
  }
}

/**
 * Postgres refuses the data itself (SQLSTATE class 22, data exception, or 23, integrity: e.g. the
 * project was deleted): such an update fails forever and goes to the dead-letter topic. Anything
 * else (connection lost, timeouts, serialization) is passing and retried. Drivers and drizzle nest
 * the original error under `cause`.
 */
export function isPoisonWrite(error: unknown): boolean {
  for (let e = error as { code?: unknown; cause?: unknown } | undefined; e; e = e.cause as typeof e) {
    if (typeof e.code === 'string' && /^2[23][0-9A-Z]{3}$/.test(e.code)) return true;
  }
  return false;
}

const MAX_BACKOFF_MS = 5_000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export interface RetryOptions {
  isPoison(error: unknown): boolean;
  /** Once true, a passing failure is thrown instead of retried (shutdown). */
  stopping(): boolean;
  onRetry(error: unknown): void;
}

/** Retries passing failures with backoff, for as long as it takes; undefined when the data is at fault. */
export async function retryPassingFailures<T>(run: () => Promise<T>, options: RetryOptions): Promise<{ value: T } | undefined> {
  for (let attempt = 0; ; attempt++) {
    try {
      return { value: await run() };
    } catch (error) {
      if (options.isPoison(error)) return undefined;
      if (options.stopping()) throw error;
      options.onRetry(error);
      await sleep(Math.min(100 * 2 ** attempt, MAX_BACKOFF_MS));
    }
  }
}

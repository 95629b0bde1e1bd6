export interface EventuallyOptions {
  timeoutMs?: number;
  intervalMs?: number;
}

/**
 * Polls until the check passes (returns without throwing), then returns its value. Asynchronous
 * pipelines are awaited this way, never with fixed sleeps. The last failure is rethrown on timeout.
 */
export async function eventually<T>(
  check: () => Promise<T> | T,
  { timeoutMs = 20_000, intervalMs = 50 }: EventuallyOptions = {},
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await check();
    } catch (error) {
      if (Date.now() >= deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, intervalMs));
    }
  }
}

import { FailureOutcome } from '@analytics/kafka';

/**
 * Postgres refuses the data itself (SQLSTATE class 22, data exception, or 23, integrity: e.g. the
 * project was deleted): such an update fails forever and goes to the dead-letter topic. Anything
 * else (connection lost, timeouts, serialization) is passing and retried. Drivers and drizzle nest
 * the original error under `cause`.
 */
export function classifyWriteFailure(error: unknown): FailureOutcome {
  for (let e = error as { code?: unknown; cause?: unknown } | undefined; e; e = e.cause as typeof e) {
    if (typeof e.code === 'string' && /^2[23][0-9A-Z]{3}$/.test(e.code)) return 'dead-letter';
  }
  return 'retry';
}

import { FailureOutcome } from '@analytics/kafka';

/**
 * ClickHouse error codes that mean the data itself cannot be stored (parsing, types, sizes): such a
 * record would fail forever and goes to the dead-letter topic. Anything else (connection refused,
 * timeouts, too many parts, memory) is passing and retried.
 */
const DATA_ERROR_CODES = new Set([6, 26, 27, 38, 41, 53, 69, 70, 72, 117, 130, 131, 241]);

export function classifyInsertFailure(error: unknown): FailureOutcome {
  const code = Number((error as { code?: unknown }).code);
  return DATA_ERROR_CODES.has(code) ? 'dead-letter' : 'retry';
}

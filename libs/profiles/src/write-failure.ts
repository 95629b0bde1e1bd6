import { asError } from '@analytics/errors';
import { FailureOutcome } from '@analytics/kafka';

type Failure = { code?: unknown; message?: unknown; cause?: unknown };

/** The error and the errors it wraps: drivers and drizzle nest the original error under `cause`. */
function* causes(error: unknown): Generator<Failure> {
  for (let e = error as Failure | undefined; e; e = e.cause as Failure | undefined) yield e;
}

/**
 * Postgres refuses the data itself: SQLSTATE class 22 (data exception), 23 (integrity: e.g. the
 * project was deleted) or 54 (program limit exceeded: a row or value too large, e.g. an index row
 * over its maximum). Such an update fails every time, so it goes to the dead-letter topic (the
 * consumer first retries the batch's updates one by one, so only the guilty ones do). Anything
 * else (connection lost, timeouts, serialization) is passing and retried.
 */
export function classifyWriteFailure(error: unknown): FailureOutcome {
  for (const e of causes(error))
    if (typeof e.code === 'string' && /^(22|23|54)[0-9A-Z]{3}$/.test(e.code)) return 'dead-letter';
  return 'retry';
}

/**
 * The Postgres error a driver wrapped, as a dead letter's reason: its SQLSTATE and message, not the
 * whole statement with its parameters. The original stays the cause, so it is classified the same.
 */
export function postgresRefusal(error: unknown): Error {
  for (const e of causes(error)) {
    if (typeof e.code === 'string' && /^[0-9A-Z]{5}$/.test(e.code) && typeof e.message === 'string')
      return new Error(`SQLSTATE ${e.code}: ${e.message}`, { cause: error });
  }
  return asError(error);
}

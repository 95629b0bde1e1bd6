import type { Clock } from 'pg-boss';

/** How a queue's jobs are retried and how long one attempt may hold its claim. */
export interface JobPolicy {
  /** Attempts after the first; a job runs at most `retryLimit + 1` times. */
  retryLimit?: number;
  /**
   * Seconds before a retry. With `retryBackoff`, retry n waits retryDelaySeconds × 2^(n−1) × (1 + a
   * random fraction), so replicas failing together do not retry together.
   */
  retryDelaySeconds?: number;
  retryBackoff?: boolean;
  /** Upper bound of a backed-off delay. */
  retryDelayMaxSeconds?: number;
  /**
   * The longest one attempt may hold its claim (at most 24 hours): past it the attempt is failed
   * and retried, whether its worker is slow or dead, and the handler's signal is aborted.
   */
  expireInSeconds?: number;
  /**
   * A renewable lease for long jobs (at least 10): the worker refreshes it every half period, so a
   * killed worker's job is failed this many seconds after its last refresh, long before
   * expireInSeconds would end it.
   */
  heartbeatSeconds?: number;
  /** How long a finished (completed or failed) job is kept, readable through getJob(), at least. */
  keepSeconds?: number;
}

export interface JobsSettings {
  /** The Postgres schema pg-boss keeps its tables in. */
  schema: string;
  /** How often an idle worker looks for a job. At least 0.5. */
  pollingIntervalSeconds: number;
  /** How often expired leases are looked for (and stale jobs cleaned up), across all replicas. */
  expiryCheckIntervalSeconds: number;
  /** How often schedules are evaluated, across all replicas. 1 to 45 (an occurrence stays due for 60). */
  scheduleIntervalSeconds: number;
  /** On shutdown, how long running handlers may take before their jobs are failed (and retried). */
  stopTimeoutMs: number;
  /** The policy of a queue nobody defined with its own. */
  defaultPolicy: JobPolicy;
  /** Time for pg-boss's timers and its SQL (`TestClock` in tests); the system clock otherwise. */
  clock?: Clock;
}

export const DEFAULT_JOBS_SETTINGS: JobsSettings = {
  schema: 'pgboss',
  pollingIntervalSeconds: 2,
  expiryCheckIntervalSeconds: 30,
  scheduleIntervalSeconds: 30,
  // Below the process's own SHUTDOWN_TIMEOUT_MS (10 s by default), which also has engines to close.
  stopTimeoutMs: 5_000,
  defaultPolicy: {
    retryLimit: 3,
    retryDelaySeconds: 10,
    retryBackoff: true,
    expireInSeconds: 15 * 60,
    keepSeconds: 7 * 24 * 3600,
  },
};

export type JobsOptions = Partial<Omit<JobsSettings, 'defaultPolicy'>> & { defaultPolicy?: JobPolicy };

/** Fills in defaults and rejects values pg-boss would refuse later, all problems in one message. */
export function resolveJobsSettings(options: JobsOptions = {}): JobsSettings {
  const settings: JobsSettings = {
    ...DEFAULT_JOBS_SETTINGS,
    ...options,
    defaultPolicy: { ...DEFAULT_JOBS_SETTINGS.defaultPolicy, ...options.defaultPolicy },
  };
  const problems = [
    ...check(
      /^[a-z_][a-z0-9_]*$/.test(settings.schema),
      `schema must be a lower-case identifier (got "${settings.schema}")`,
    ),
    ...check(settings.pollingIntervalSeconds >= 0.5, 'pollingIntervalSeconds must be at least 0.5'),
    ...check(
      Number.isInteger(settings.expiryCheckIntervalSeconds) && settings.expiryCheckIntervalSeconds >= 1,
      'expiryCheckIntervalSeconds must be an integer of at least 1',
    ),
    ...check(
      Number.isInteger(settings.scheduleIntervalSeconds) &&
        settings.scheduleIntervalSeconds >= 1 &&
        settings.scheduleIntervalSeconds <= 45,
      'scheduleIntervalSeconds must be an integer from 1 to 45',
    ),
    ...check(settings.stopTimeoutMs >= 1_000, 'stopTimeoutMs must be at least 1000'),
    ...policyProblems(settings.defaultPolicy),
  ];
  if (problems.length) throw new Error(`Invalid jobs settings: ${problems.join('; ')}`);
  return settings;
}

/** The same bounds pg-boss asserts, checked where the caller can still be named. */
export function policyProblems(policy: JobPolicy): string[] {
  const whole = (value: number | undefined, min: number) =>
    value === undefined || (Number.isInteger(value) && value >= min);
  return [
    ...check(whole(policy.retryLimit, 0), 'retryLimit must be an integer of at least 0'),
    ...check(whole(policy.retryDelaySeconds, 0), 'retryDelaySeconds must be an integer of at least 0'),
    ...check(whole(policy.retryDelayMaxSeconds, 0), 'retryDelayMaxSeconds must be an integer of at least 0'),
    ...check(
      policy.retryDelayMaxSeconds === undefined || policy.retryBackoff === true,
      'retryDelayMaxSeconds needs retryBackoff',
    ),
    ...check(
      whole(policy.expireInSeconds, 1) && (policy.expireInSeconds ?? 0) <= 24 * 3600,
      'expireInSeconds must be an integer from 1 to 86400',
    ),
    ...check(whole(policy.heartbeatSeconds, 10), 'heartbeatSeconds must be an integer of at least 10'),
    ...check(whole(policy.keepSeconds, 1), 'keepSeconds must be an integer of at least 1'),
  ];
}

function check(ok: boolean, problem: string): string[] {
  return ok ? [] : [problem];
}

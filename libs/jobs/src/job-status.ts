import type { JobWithMetadata } from 'pg-boss';

/** Where a job is in its life, as services show it through their APIs. */
export type JobState = 'queued' | 'active' | 'completed' | 'failed' | 'cancelled';

export interface JobStatus<T = unknown> {
  id: string;
  name: string;
  payload: T;
  state: JobState;
  /** Attempts started so far, the running one included. */
  attempts: number;
  /** retryLimit + 1: the attempts it gets before it is failed for good. */
  maxAttempts: number;
  /** The message of the latest failure, while the job waits to retry, runs again, or has failed. */
  lastError: string | null;
  createdAt: Date;
  /** When it may (next) run: its start-after, or the end of its retry delay. */
  runAfter: Date;
  startedAt: Date | null;
  finishedAt: Date | null;
}

const STATES: Record<JobWithMetadata['state'], JobState> = {
  created: 'queued',
  retry: 'queued',
  active: 'active',
  completed: 'completed',
  failed: 'failed',
  cancelled: 'cancelled',
};

/** pg-boss's row, in the terms of this lib. */
export function toJobStatus<T>(job: JobWithMetadata<T>): JobStatus<T> {
  const state = STATES[job.state];
  return {
    id: job.id,
    name: job.name,
    payload: job.data,
    state,
    // retry_count goes up when a job is claimed again after an attempt started (started_on set).
    attempts: job.startedOn ? job.retryCount + 1 : 0,
    maxAttempts: job.retryLimit + 1,
    // A completed job's output is what its handler returned (nothing, here), never an error.
    lastError: state === 'completed' ? null : errorMessage(job.output),
    createdAt: job.createdOn,
    runAfter: job.startAfter,
    startedAt: job.startedOn ?? null,
    finishedAt: job.completedOn ?? null,
  };
}

/**
 * The shapes pg-boss stores a failure in: a serialised Error (`{ name, message, stack }`), its own
 * expiry note (`{ value: { message } }`) and its shutdown note (`{ value: "…" }`).
 */
export function errorMessage(output: unknown): string | null {
  if (!output || typeof output !== 'object') return null;
  const { message, value } = output as { message?: unknown; value?: unknown };
  if (typeof message === 'string') return message;
  if (typeof value === 'string') return value;
  if (value && typeof value === 'object' && typeof (value as { message?: unknown }).message === 'string')
    return (value as { message: string }).message;
  return null;
}

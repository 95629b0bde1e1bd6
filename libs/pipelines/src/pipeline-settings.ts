export const PIPELINE_SETTINGS = Symbol('PipelineSettings');

/** The job queue of window exports, and the scheduler's tick. */
export const PIPELINE_WINDOW_QUEUE = 'pipeline-window';
export const PIPELINE_TICK_QUEUE = 'pipeline-tick';

export interface PipelineSettings {
  /** Attempts of one window after the first (with backoff); then the window waits for the next tick under a new job. */
  retryLimit: number;
  retryDelaySeconds: number;
  /** Lease of one attempt: a killed worker's window is taken up again after this. */
  expireInSeconds: number;
  /** A window that ran out of retries is enqueued again this long after. */
  failedWindowDelaySeconds: number;
  pollingIntervalSeconds: number;
  /** Windows one replica exports at once. */
  concurrency: number;
  /** Replicas that only serve the API (tests, or a dedicated worker deployment elsewhere) set this false. */
  work: boolean;
}

export const DEFAULT_PIPELINE_SETTINGS: PipelineSettings = {
  retryLimit: 5,
  retryDelaySeconds: 60,
  expireInSeconds: 3600,
  failedWindowDelaySeconds: 1800,
  pollingIntervalSeconds: 2,
  concurrency: 1,
  work: true,
};

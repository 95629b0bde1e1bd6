/** How compliance jobs run; `ComplianceModule.forRoot(settings)` overrides the defaults. */
export interface ComplianceSettings extends ComplianceTiming {
  /** Lifetime of a retrieval's download link. */
  linkTtlSeconds: number;
  /** CCPA retrievals cover this many days back from the request. */
  ccpaWindowDays: number;
  /** Attempts after the first before a job is FAILURE. */
  retryLimit: number;
  retryDelaySeconds: number;
  /** Longest one attempt may run. */
  expireInSeconds: number;
  /** Renewable lease of a running attempt (at least 10): a killed worker's job is retried this long after its last renewal. */
  heartbeatSeconds: number;
  /** How long a deletion waits in STAGING for the writers to store what Kafka held before it (then the attempt fails and is retried). */
  writerWaitSeconds: number;
  /** Create requests per second per project. */
  createsPerSecond: number;
}

export const DEFAULT_COMPLIANCE_SETTINGS: ComplianceSettings = {
  linkTtlSeconds: 7 * 86_400,
  ccpaWindowDays: 365,
  retryLimit: 3,
  retryDelaySeconds: 10,
  expireInSeconds: 3600,
  heartbeatSeconds: 30,
  writerWaitSeconds: 600,
  createsPerSecond: 1,
  startAfterSeconds: 0,
  pollingIntervalSeconds: 2,
};

export const COMPLIANCE_SETTINGS = Symbol('COMPLIANCE_SETTINGS');

/** pg-boss queue names of the two kinds of work. */
export const DATA_DELETION_QUEUE = 'compliance.data-deletion';
export const DATA_RETRIEVAL_QUEUE = 'compliance.data-retrieval';

export interface ComplianceTiming {
  /** Grace before a job's work is claimed (it can be cancelled meanwhile); 0 runs it at once. */
  startAfterSeconds: number;
  /** How often an idle worker looks for work. */
  pollingIntervalSeconds: number;
}

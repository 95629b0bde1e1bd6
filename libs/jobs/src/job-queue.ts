import { IdSource } from '@analytics/clock';
import { Postgres } from '@analytics/postgres';
import { BeforeApplicationShutdown, Logger } from '@nestjs/common';
import { PgBoss } from 'pg-boss';
import { jobDatabaseOf } from './job-database';
import { JobStatus, toJobStatus } from './job-status';
import { JobPolicy, JobsOptions, JobsSettings, policyProblems, resolveJobsSettings } from './jobs-settings';
import { keyedJobId } from './keyed-job-id';

export interface EnqueueOptions extends JobPolicy {
  /**
   * Idempotency key: the job's id is derived from (queue, key), so enqueueing the same key again,
   * from any replica, creates nothing while the first job is kept (queued, running, or finished
   * for less than its keepSeconds) and returns the same id.
   */
  key?: string;
  /** Not before this time. */
  startAfter?: Date;
}

/** One attempt of a job, as its handler sees it. */
export interface RunningJob<T> {
  id: string;
  name: string;
  payload: T;
  /** 1 for the first attempt; a later one may find the work of an earlier, interrupted one. */
  attempt: number;
  /** Aborted when this attempt lost its claim: lease expired, or shutdown grace ran out. */
  signal: AbortSignal;
}

/**
 * Runs one attempt. Jobs are delivered at least once (a worker killed after the work but before
 * it recorded completion runs it again), so a handler must be idempotent. Throwing fails the
 * attempt: it is retried per the queue's policy, its message kept as the job's last error.
 */
export type JobHandler<T> = (job: RunningJob<T>) => Promise<void>;

export interface WorkOptions {
  /** Attempts this replica runs at once on this queue. */
  concurrency?: number;
  pollingIntervalSeconds?: number;
}

export interface ScheduleOptions {
  /** Tells apart several schedules of one queue; one schedule per (queue, key). */
  key?: string;
  /** IANA zone the cron expression is read in. */
  timezone?: string;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Durable jobs in Postgres (pg-boss): enqueue, work, schedule, and read a job's state. Every
 * replica holds one; they coordinate through the database only. See docs/jobs.md.
 */
export class JobQueue implements BeforeApplicationShutdown {
  private readonly queues = new Map<string, Promise<void>>();

  private constructor(
    private readonly boss: PgBoss,
    private readonly settings: JobsSettings,
    private readonly ids: IdSource,
  ) {}

  /**
   * Installs or migrates pg-boss's schema (once, under its advisory lock) and starts supervising.
   * `ids` makes the ids of jobs enqueued without a key.
   */
  static async start(postgres: Postgres, options: JobsOptions, ids: IdSource): Promise<JobQueue> {
    const settings = resolveJobsSettings(options);
    const { db, backend } = jobDatabaseOf(postgres);
    const boss = new PgBoss({
      db,
      backend,
      schema: settings.schema,
      // Expired leases are found by the monitor pass, which runs only as often as both of these.
      superviseIntervalSeconds: settings.expiryCheckIntervalSeconds,
      monitorIntervalSeconds: settings.expiryCheckIntervalSeconds,
      cronMonitorIntervalSeconds: settings.scheduleIntervalSeconds,
      cronWorkerIntervalSeconds: Math.min(5, settings.scheduleIntervalSeconds),
      ...(settings.clock ? { clock: settings.clock } : {}),
    });
    // pg-boss reports background failures as events; an unheard 'error' would end the process.
    const logger = new Logger(JobQueue.name);
    boss.on('error', (error) => logger.error(`pg-boss: ${error.message}`));
    boss.on('warning', (warning) => logger.warn(`pg-boss: ${warning.message}`));
    await boss.start();
    return new JobQueue(boss, settings, ids);
  }

  /**
   * Creates the queue with its policy, or changes the policy of an existing one. The module that
   * owns a queue calls this at start, on every replica, so jobs enqueued anywhere get the policy.
   */
  async define(name: string, policy: JobPolicy = {}): Promise<void> {
    assertPolicy(policy);
    const options = policyOptions({ ...this.settings.defaultPolicy, ...policy });
    await this.boss.createQueue(name, options);
    // createQueue leaves an existing queue as it was.
    await this.boss.updateQueue(name, {
      ...options,
      retryDelayMax: options.retryDelayMax ?? null,
      heartbeatSeconds: options.heartbeatSeconds ?? null,
    });
    this.queues.set(name, Promise.resolve());
  }

  /** Returns the job's id; with a `key`, the id that key always maps to. */
  async enqueue<T extends object>(name: string, payload: T, options: EnqueueOptions = {}): Promise<string> {
    const { key, startAfter, ...policy } = options;
    assertPolicy(policy);
    await this.ensureQueue(name);
    const id = key === undefined ? this.ids.uuid() : keyedJobId(name, key);
    // A known id makes the insert a no-op (ON CONFLICT DO NOTHING): that is the idempotency.
    await this.boss.send(name, payload, { ...policyOptions(policy), id, ...(startAfter ? { startAfter } : {}) });
    return id;
  }

  /**
   * Enqueues many jobs of one queue in one statement, each as `enqueue` would (same ids for the
   * same keys, so a repeat creates nothing); returns their ids in order.
   */
  async enqueueMany<T extends object>(
    name: string,
    jobs: readonly { payload: T; key?: string; startAfter?: Date }[],
    policy: JobPolicy = {},
  ): Promise<string[]> {
    assertPolicy(policy);
    if (!jobs.length) return [];
    await this.ensureQueue(name);
    const options = policyOptions(policy);
    const ids = jobs.map((job) => (job.key === undefined ? this.ids.uuid() : keyedJobId(name, job.key)));
    await this.boss.insert(
      name,
      jobs.map((job, i) => ({
        ...options,
        id: ids[i],
        data: job.payload,
        ...(job.startAfter ? { startAfter: job.startAfter } : {}),
      })),
    );
    return ids;
  }

  /** Starts claiming this queue's jobs on this replica, one attempt per claim. */
  async work<T>(name: string, handler: JobHandler<T>, options: WorkOptions = {}): Promise<void> {
    await this.ensureQueue(name);
    const settings = {
      batchSize: 1,
      localConcurrency: options.concurrency ?? 1,
      pollingIntervalSeconds: options.pollingIntervalSeconds ?? this.settings.pollingIntervalSeconds,
    };
    await this.boss.work<T>(name, settings, async ([job]) => {
      // pg-boss counts re-claims in retryCount, so the attempt running now is one more.
      await handler({ id: job.id, name: job.name, payload: job.data, attempt: job.retryCount + 1, signal: job.signal });
    });
  }

  /**
   * Enqueues `payload` on every occurrence of `cron` (5 fields, or 6 with seconds; one job per
   * minute at most). The schedule lives in the database: every replica may declare it, and each
   * occurrence is enqueued once whichever replicas are running.
   */
  async schedule<T extends object>(
    name: string,
    cron: string,
    payload: T,
    options: ScheduleOptions = {},
  ): Promise<void> {
    await this.ensureQueue(name);
    await this.boss.schedule(name, cron, payload, {
      tz: options.timezone ?? 'UTC',
      ...(options.key ? { key: options.key } : {}),
    });
  }

  async unschedule(name: string, key?: string): Promise<void> {
    await this.boss.unschedule(name, key);
  }

  /** The job's state, or undefined when there is none (never enqueued, or deleted after keepSeconds). */
  async getJob<T = unknown>(name: string, id: string): Promise<JobStatus<T> | undefined> {
    if (!UUID.test(id)) return undefined;
    try {
      const [job] = await this.boss.findJobs<T>(name, { id });
      return job ? toJobStatus(job) : undefined;
    } catch (error) {
      if ((error as { code?: string }).code === 'PGBOSS_QUEUE_NOT_FOUND') return undefined;
      throw error;
    }
  }

  /**
   * Stops claiming, lets running handlers finish for up to stopTimeoutMs, then fails what is left
   * (it is retried, here or on another replica) and aborts those handlers' signals.
   */
  async stop(): Promise<void> {
    await this.boss.stop({ graceful: true, timeout: this.settings.stopTimeoutMs });
  }

  /** Before the engines close (they do in onApplicationShutdown), so running handlers can finish. */
  beforeApplicationShutdown(): Promise<void> {
    return this.stop();
  }

  private ensureQueue(name: string): Promise<void> {
    let ready = this.queues.get(name);
    if (!ready) {
      ready = this.boss.createQueue(name, policyOptions(this.settings.defaultPolicy));
      ready.catch(() => this.queues.delete(name));
      this.queues.set(name, ready);
    }
    return ready;
  }
}

function assertPolicy(policy: JobPolicy): void {
  const problems = policyProblems(policy);
  if (problems.length) throw new Error(`Invalid job policy: ${problems.join('; ')}`);
}

/** A policy in pg-boss's terms, for a queue (its default) or for one job (an override). */
function policyOptions(policy: JobPolicy) {
  const options = {
    retryLimit: policy.retryLimit,
    retryDelay: policy.retryDelaySeconds,
    retryBackoff: policy.retryBackoff,
    retryDelayMax: policy.retryDelayMaxSeconds,
    expireInSeconds: policy.expireInSeconds,
    heartbeatSeconds: policy.heartbeatSeconds,
    deleteAfterSeconds: policy.keepSeconds,
  };
  // pg-boss reads a present key as a choice, so leave out what the caller did not set.
  return Object.fromEntries(Object.entries(options).filter(([, value]) => value !== undefined)) as Partial<
    typeof options
  >;
}

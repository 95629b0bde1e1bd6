import { RandomIds } from '@analytics/clock';
import { JobQueue, JobsModule } from '@analytics/jobs';
import { JobStatus } from '../src/job-status';
import { JobsOptions } from '../src/jobs-settings';
import { Postgres } from '@analytics/postgres';
import {
  createTestDatabase,
  eventually,
  postgresServerAvailable,
  PostgresKind,
  TestResource,
} from '@analytics/testing';
import { Global, Module } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { randomUUID } from 'node:crypto';
import type { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import { fromPglite, TestClock } from 'pg-boss';
import { jobDatabaseOf } from '../src/job-database';
import { startClaimingWorker } from './support/claiming-worker-process';
import { copyPgliteDatabase } from './support/pglite-copy';

const kinds: PostgresKind[] = postgresServerAvailable() ? ['server', 'pglite'] : ['pglite'];

// Short intervals so leases, retries and schedules play out in seconds.
const FAST: JobsOptions = {
  pollingIntervalSeconds: 0.5,
  expiryCheckIntervalSeconds: 1,
  scheduleIntervalSeconds: 1,
  stopTimeoutMs: 1_000,
};

const stateOf = async (jobs: JobQueue, name: string, id: string, state: JobStatus['state']): Promise<JobStatus> =>
  eventually(async () => {
    const status = await jobs.getJob(name, id);
    expect(status?.state).toBe(state);
    return status as JobStatus;
  });

describe.each(kinds)('jobs on Postgres (%s)', (kind) => {
  let resource: TestResource;
  // A server gets a pool per replica, as two processes would; PGlite is one connection per process.
  let connections: Postgres[];
  let replicas: JobQueue[];

  beforeAll(async () => {
    resource = await createTestDatabase(kind);
    const first = await Postgres.connect(resource.url);
    connections = kind === 'server' ? [first, await Postgres.connect(resource.url)] : [first];
    // Started together: both install the schema and one loses that race, as pg-boss expects (on
    // PGlite that failure needs the session fix in job-database.ts not to break the other).
    replicas = await Promise.all([
      JobQueue.start(first, FAST, new RandomIds()),
      JobQueue.start(connections.at(-1)!, FAST, new RandomIds()),
    ]);
  });
  afterAll(async () => {
    // Whatever beforeAll got to: an engine left open would keep jest from exiting.
    await Promise.all((replicas ?? []).map((replica) => replica.stop()));
    await Promise.all((connections ?? []).map((connection) => connection.close()));
    await resource?.dispose();
  });

  it('runs an enqueued job once and reports its state; the same key enqueues nothing more', async () => {
    const [jobs] = replicas;
    const id = await jobs.enqueue('greetings', { to: 'Ada' }, { key: 'greet-ada' });
    expect(await jobs.enqueue('greetings', { to: 'Ada, again' }, { key: 'greet-ada' })).toBe(id);
    expect(await jobs.getJob('greetings', id)).toMatchObject({
      state: 'queued',
      attempts: 0,
      payload: { to: 'Ada' },
      lastError: null,
    });

    const runs: unknown[] = [];
    await jobs.work<{ to: string }>('greetings', async (job) => void runs.push([job.id, job.attempt, job.payload]));
    expect(await stateOf(jobs, 'greetings', id, 'completed')).toMatchObject({
      attempts: 1,
      maxAttempts: 4,
      lastError: null,
    });
    // Redefining the queue changes the policy of the jobs enqueued from then on.
    await jobs.define('greetings', { retryLimit: 1 });
    // A later job through the same worker: by the time it is done, the first one would have rerun.
    const later = await stateOf(jobs, 'greetings', await jobs.enqueue('greetings', { to: 'Grace' }), 'completed');
    expect(later.maxAttempts).toBe(2);
    expect(runs).toEqual([
      [id, 1, { to: 'Ada' }],
      [expect.any(String), 1, { to: 'Grace' }],
    ]);
    expect(await jobs.getJob('greetings', randomUUID())).toBeUndefined();
    expect(await jobs.getJob('greetings', 'not-an-id')).toBeUndefined();
    expect(await jobs.getJob('never-used', randomUUID())).toBeUndefined();
  });

  it('enqueues many jobs at once with the ids and idempotency of one-by-one enqueues', async () => {
    const [jobs, other] = replicas;
    const ids = await jobs.enqueueMany(
      'batch',
      [{ payload: { n: 1 }, key: 'one' }, { payload: { n: 2 }, key: 'two' }, { payload: { n: 3 } }],
      { retryLimit: 2 },
    );
    expect(ids).toHaveLength(3);
    expect(ids[0]).toBe(await other.enqueue('batch', { n: 99 }, { key: 'one' }));
    // A repeat of the keyed ones (from another replica) creates nothing new and keeps the first payloads.
    expect(
      await other.enqueueMany('batch', [
        { payload: { n: 20 }, key: 'two' },
        { payload: { n: 10 }, key: 'one' },
      ]),
    ).toEqual([ids[1], ids[0]]);
    const statuses = await Promise.all(ids.map((id) => jobs.getJob('batch', id)));
    expect(statuses.map((s) => [s?.state, s?.payload, s?.maxAttempts])).toEqual([
      ['queued', { n: 1 }, 3],
      ['queued', { n: 2 }, 3],
      ['queued', { n: 3 }, 3],
    ]);
    const startAfter = new Date(Date.now() + 3_600_000);
    const [held] = await jobs.enqueueMany('batch', [{ payload: { n: 4 }, startAfter }]);
    expect(await jobs.getJob('batch', held)).toMatchObject({ state: 'queued', runAfter: startAfter });
    expect(await jobs.enqueueMany('batch', [])).toEqual([]);
  });

  it('never runs a job on two replicas at once', async () => {
    const ids = await Promise.all(Array.from({ length: 30 }, (_, i) => replicas[0].enqueue('contended', { i })));
    const running = new Set<string>();
    const overlapping: string[] = [];
    const runs = new Map<string, number>();
    const perReplica = [0, 0];
    // Both replicas poll from the moment they register, so both find the backlog waiting.
    await Promise.all(
      [replicas[0], replicas[1]].map((replica, index) =>
        replica.work(
          'contended',
          async (job) => {
            if (running.has(job.id)) overlapping.push(job.id);
            running.add(job.id);
            runs.set(job.id, (runs.get(job.id) ?? 0) + 1);
            perReplica[index]++;
            await new Promise((resolve) => setTimeout(resolve, 25));
            running.delete(job.id);
          },
          { concurrency: 3 },
        ),
      ),
    );
    for (const id of ids) await stateOf(replicas[0], 'contended', id, 'completed');
    expect(overlapping).toEqual([]);
    expect([...runs.keys()].sort()).toEqual([...ids].sort());
    expect([...runs.values()].every((count) => count === 1)).toBe(true);
    expect(perReplica.every((count) => count > 0)).toBe(true);
  });

  it('re-runs the job of a worker killed mid-job, once its lease has expired', async () => {
    // PGlite is opened by one process at a time: the dead worker has its own directory, which the
    // survivor opens once it is gone (a restart of the embedded default). A server is shared.
    const target = kind === 'server' ? resource : await copyPgliteDatabase(connections[0]);
    const worker = startClaimingWorker({
      DATABASE_URL: target.url,
      JOB_QUEUE: 'doomed',
      JOB_KEY: 'only-once',
      JOB_EXPIRE_SECONDS: '2',
    });
    const id = await worker.claimedJobId();
    await worker.kill();

    const survivorConnection = kind === 'server' ? undefined : await Postgres.connect(target.url);
    const survivor = survivorConnection ? await JobQueue.start(survivorConnection, FAST, new RandomIds()) : replicas[1];
    try {
      // Still claimed by the dead process: nothing else may run it before the lease is over.
      expect(await survivor.getJob('doomed', id)).toMatchObject({ state: 'active', attempts: 1 });
      const attempts: number[] = [];
      await survivor.work('doomed', async (job) => void attempts.push(job.attempt));
      expect(await stateOf(survivor, 'doomed', id, 'completed')).toMatchObject({ attempts: 2 });
      expect(attempts).toEqual([2]);
    } finally {
      if (survivorConnection) {
        await survivor.stop();
        await survivorConnection.close();
        await target.dispose();
      }
    }
  });

  it('on Nest shutdown stops claiming, lets running handlers finish, and hands back the ones past the bound', async () => {
    @Global()
    @Module({ providers: [{ provide: Postgres, useValue: connections[0] }], exports: [Postgres] })
    class SharedPostgresModule {}
    const app = await Test.createTestingModule({
      imports: [SharedPostgresModule, JobsModule.forRoot({ ...FAST, stopTimeoutMs: 1_000 })],
    }).compile();
    await app.init();
    const jobs = app.get(JobQueue);
    const started: string[] = [];
    let stuckAborted = false;
    await jobs.work<{ kind: string }>(
      'shutdown',
      async (job) => {
        started.push(job.payload.kind);
        if (job.payload.kind === 'quick') return new Promise((resolve) => setTimeout(resolve, 300));
        // Outlives the bound; pg-boss fails the job first, then aborts the signal.
        await new Promise<void>((resolve) => job.signal.addEventListener('abort', () => resolve(), { once: true }));
        stuckAborted = true;
      },
      { concurrency: 2 },
    );
    const quick = await jobs.enqueue('shutdown', { kind: 'quick' });
    const stuck = await jobs.enqueue('shutdown', { kind: 'stuck' });
    await eventually(() => expect([...started].sort()).toEqual(['quick', 'stuck']));

    await app.close();
    const [observer] = replicas;
    expect(await observer.getJob('shutdown', quick)).toMatchObject({ state: 'completed', attempts: 1 });
    expect(await observer.getJob('shutdown', stuck)).toMatchObject({
      state: 'queued',
      attempts: 1,
      lastError: 'pg-boss shut down while active',
    });
    expect(stuckAborted).toBe(true);
    expect(started).toHaveLength(2);
  });

  if (kind === 'pglite') {
    it("keeps a failed pg-boss transaction from failing the application's queries on the shared PGlite session", async () => {
      const [postgres] = connections;
      const failingBlock = 'BEGIN; SELECT 1 / 0; COMMIT;';
      const applicationQuery = () => postgres.db.execute(sql`select 1 as ok`);
      // pg-boss's own PGlite adapter rolls back in a second call: a query queued meanwhile fails.
      const plain = fromPglite((postgres.db as unknown as { $client: PGlite }).$client);
      const [plainBlock, plainQuery] = await Promise.allSettled([plain.executeSql(failingBlock), applicationQuery()]);
      expect(plainBlock.status).toBe('rejected');
      // drizzle wraps the driver's error as the cause of its own.
      expect(plainQuery).toMatchObject({
        status: 'rejected',
        reason: { cause: { message: expect.stringContaining('current transaction is aborted') } },
      });

      const { db } = jobDatabaseOf(postgres);
      const [block, query] = await Promise.allSettled([db.executeSql(failingBlock), applicationQuery()]);
      expect(block).toMatchObject({ status: 'rejected', reason: { message: 'division by zero' } });
      expect(query.status).toBe('fulfilled');
    });
  }

  describe('with a controlled clock', () => {
    // pg-boss's TestClock drives its timers and, through the schema's job_now(), the database's
    // idea of now; a schema of its own keeps that from reaching the replicas above.
    const clock = new TestClock(Date.parse('2030-01-01T10:04:58Z'));
    let clocked: JobQueue[];
    const tickUntil = async (done: () => Promise<boolean>) => {
      for (let ticks = 0; !(await done()); ticks++) {
        if (ticks > 100) throw new Error('not done after 100 simulated seconds');
        await clock.tick(1_000);
      }
    };

    beforeAll(async () => {
      const options = { ...FAST, schema: 'jobs_clocked', clock };
      clocked = [
        await JobQueue.start(connections[0], options, new RandomIds()),
        await JobQueue.start(connections.at(-1)!, options, new RandomIds()),
      ];
    });
    afterAll(async () => {
      await Promise.all((clocked ?? []).map((replica) => replica.stop()));
    });

    it('fires a schedule once per occurrence with two replicas declaring it', async () => {
      const runs: string[] = [];
      for (const replica of clocked) {
        await replica.schedule('report', '* * * * *', { report: 'usage' });
        await replica.work('report', async () => void runs.push(new Date(clock.now()).toISOString().slice(11, 16)));
      }
      // Both replicas evaluate the schedule every simulated second, a dozen times in all.
      const end = Date.parse('2030-01-01T10:05:05Z');
      await tickUntil(async () => clock.now() >= end);
      await clocked[0].unschedule('report');
      // 10:04 is still due (for 60 s) when the replicas start at 10:04:58.
      expect(runs).toEqual(['10:04', '10:05']);
    });

    it('holds a job until its start-after', async () => {
      const [jobs] = clocked;
      const startAfter = new Date(clock.now() + 5_000);
      const ranAt: number[] = [];
      await jobs.work('later', async () => void ranAt.push(clock.now()));
      const id = await jobs.enqueue('later', {}, { startAfter });
      expect(await jobs.getJob('later', id)).toMatchObject({ state: 'queued', runAfter: startAfter });
      await tickUntil(async () => (await jobs.getJob('later', id))?.state === 'completed');
      expect(ranAt).toHaveLength(1);
      expect(ranAt[0]).toBeGreaterThanOrEqual(startAfter.getTime());
    });

    it('retries a failing handler with exponential backoff, then fails the job with its last error', async () => {
      const [jobs] = clocked;
      await jobs.define('flaky', { retryLimit: 3, retryDelaySeconds: 1, retryBackoff: true });
      const starts: number[] = [];
      let whileRetrying: JobStatus | undefined;
      await jobs.work('flaky', async (job) => {
        starts.push(clock.now());
        if (job.attempt === 2) whileRetrying = await jobs.getJob('flaky', job.id);
        throw new Error(`attempt ${job.attempt} failed`);
      });
      const id = await jobs.enqueue('flaky', { table: 'events' });
      await tickUntil(async () => (await jobs.getJob('flaky', id))?.state === 'failed');

      expect(await jobs.getJob('flaky', id)).toMatchObject({
        state: 'failed',
        attempts: 4,
        maxAttempts: 4,
        lastError: 'attempt 4 failed',
      });
      expect(whileRetrying).toMatchObject({ state: 'active', attempts: 2, lastError: 'attempt 1 failed' });
      // The delay before retry n is retryDelay × 2^(n−1) × (1 + jitter); polling adds up to a second.
      const gaps = starts.slice(1).map((start, i) => start - starts[i]);
      gaps.forEach((gap, n) => {
        expect(gap).toBeGreaterThanOrEqual(1_000 * 2 ** n);
        expect(gap).toBeLessThanOrEqual(2_000 * 2 ** n + 1_000);
      });
    });
  });
});

import { RandomIds } from '@analytics/clock';
import { JobQueue } from '@analytics/jobs';
import { Postgres } from '@analytics/postgres';

/**
 * A replica that enqueues one keyed job, claims it and never finishes it: the integration spec
 * runs this built file as its own process and SIGKILLs it mid-job.
 */
async function main(): Promise<void> {
  const { DATABASE_URL, JOB_QUEUE, JOB_KEY, JOB_EXPIRE_SECONDS } = process.env;
  if (!DATABASE_URL || !JOB_QUEUE || !JOB_KEY || !JOB_EXPIRE_SECONDS)
    throw new Error('DATABASE_URL, JOB_QUEUE, JOB_KEY and JOB_EXPIRE_SECONDS are required');
  const postgres = await Postgres.connect(DATABASE_URL);
  const jobs = await JobQueue.start(postgres, { pollingIntervalSeconds: 0.5 }, new RandomIds());
  await jobs.define(JOB_QUEUE, { expireInSeconds: Number(JOB_EXPIRE_SECONDS), retryLimit: 1, retryDelaySeconds: 0 });
  await jobs.enqueue(JOB_QUEUE, { step: 'claimed by a process that dies' }, { key: JOB_KEY });
  await jobs.work(JOB_QUEUE, async (job) => {
    process.stdout.write(`claimed ${job.id} attempt ${job.attempt}\n`);
    await new Promise(() => undefined); // only SIGKILL ends this attempt
  });
}

main().catch((error: unknown) => {
  process.stderr.write(`${(error as Error).stack}\n`);
  process.exit(1);
});

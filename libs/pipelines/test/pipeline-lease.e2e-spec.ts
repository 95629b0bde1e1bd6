import { JobQueue, RunningJob } from '@analytics/jobs';
import { eventually } from '@analytics/testing';
import { projectScope } from '@analytics/tenancy';
import { WindowJob } from '../src/pipeline-runner';
import { PIPELINE_WINDOW_QUEUE } from '../src/pipeline-settings';
import { PipelineWindowsRepository } from '../src/pipeline-windows.repository';
import { PipelinesRepository } from '../src/pipelines.repository';
import { at, byInsertId, daysAgo, PipelinesHarness } from './pipelines-harness';

/**
 * A worker that took a window and died (it never answers again, ignoring its signal, as a killed
 * process would) loses its lease; the next attempt of the same job, on a live worker, finds the
 * window `running` from the dead attempt and exports it.
 */
describe('a window whose worker died mid-run', () => {
  let h: PipelinesHarness;

  beforeAll(async () => {
    // No worker of the module's own: the test registers the dying one and the live one. The lease is long
    // enough that the live attempt's export outlasts it on a loaded machine (2 s let it expire as well).
    h = await PipelinesHarness.start({ work: false, expireInSeconds: 8, retryDelaySeconds: 1, retryLimit: 3 });
  });
  afterAll(async () => {
    await h?.close();
  });

  it('is exported by the next attempt once the lease expired', async () => {
    const p = await h.project('lease');
    const day = daysAgo(1);
    await h.import(p.auth, [
      { event: 'Seen', properties: { time: at(day, '10:00:00'), distinct_id: 'ann', $insert_id: 'k1' } },
    ]);
    const name = (
      await h.call('POST', 'create', p.auth, { ...h.destination('exports/lease'), from_date: day, to_date: day })
    ).body.pipeline_names[0];
    const pipeline = (await h.app.get(PipelinesRepository).find(projectScope(p.id), name))!;
    const windows = h.app.get(PipelineWindowsRepository);

    const attempts: number[] = [];
    await h.app.get(JobQueue).work<WindowJob>(
      PIPELINE_WINDOW_QUEUE,
      async (job: RunningJob<WindowJob>) => {
        attempts.push(job.attempt);
        if (job.attempt > 1) return h.runner.run(job);
        await windows.claim(job.payload.pipelineId, new Date(job.payload.start), job.payload.generation);
        await new Promise(() => undefined); // dead: never returns
      },
      // Two slots: the dead handler holds one for ever, as a dead replica holds nothing; the other is the live replica.
      { pollingIntervalSeconds: 0.5, concurrency: 2 },
    );

    await eventually(async () => expect((await windows.all(pipeline.id)).map((w) => w.status)).toEqual(['running']));
    await eventually(
      async () => expect((await windows.all(pipeline.id)).map((w) => [w.status, w.attempts])).toEqual([['done', 2]]),
      { timeoutMs: 30_000 },
    );
    expect(attempts).toEqual([1, 2]);
    const key = `exports/lease/${p.id}/mp_master_event/${day.replace(/-/g, '/')}/data.json.gz`;
    expect(byInsertId(await h.jsonLines(key))).toEqual(byInsertId(await h.rawExport(p.auth, day, day)));
  });
});

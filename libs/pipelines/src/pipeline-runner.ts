import { Clock } from '@analytics/clock';
import { JobQueue, RunningJob } from '@analytics/jobs';
import { ProjectsService } from '@analytics/projects';
import { ProjectScope, projectScope } from '@analytics/tenancy';
import { Inject, Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { Pipeline } from './pipeline-definition';
import { PipelineExportRepository } from './pipeline-export.repository';
import { PIPELINE_SETTINGS, PIPELINE_TICK_QUEUE, PIPELINE_WINDOW_QUEUE, PipelineSettings } from './pipeline-settings';
import { dueWindows, SYNC_LOOKBACK_DAYS, windowLength } from './pipeline-windows';
import { PipelineWindowsRepository } from './pipeline-windows.repository';
import { PipelinesRepository } from './pipelines.repository';
import { WindowExportService } from './window-export.service';

/** The work item of one window export; `generation` fences stale jobs (docs/pipelines.md, "Runs"). */
export interface WindowJob {
  pipelineId: number;
  start: string;
  generation: number;
}

const DAY = 86_400_000;

/**
 * Schedules and runs pipeline windows on the jobs seam. A tick (every minute, one replica per
 * occurrence; also right after create and resume) records the due windows and enqueues each
 * unfinished one under a key of (pipeline, window, generation): whichever replica enqueues, there is
 * one job per window, claimed by one worker at a time.
 */
@Injectable()
export class PipelineRunner implements OnModuleInit {
  private readonly logger = new Logger(PipelineRunner.name);

  constructor(
    private readonly queue: JobQueue,
    private readonly pipelines: PipelinesRepository,
    private readonly windows: PipelineWindowsRepository,
    private readonly exports: PipelineExportRepository,
    private readonly exporter: WindowExportService,
    private readonly clock: Clock,
    private readonly projects: ProjectsService,
    @Inject(PIPELINE_SETTINGS) private readonly settings: PipelineSettings,
  ) {}

  async onModuleInit(): Promise<void> {
    const s = this.settings;
    await this.queue.define(PIPELINE_WINDOW_QUEUE, {
      retryLimit: s.retryLimit,
      retryDelaySeconds: s.retryDelaySeconds,
      retryBackoff: true,
      expireInSeconds: s.expireInSeconds,
    });
    await this.queue.define(PIPELINE_TICK_QUEUE, { retryLimit: 0, expireInSeconds: 300 });
    if (!s.work) return;
    await this.queue.work<WindowJob>(PIPELINE_WINDOW_QUEUE, (job) => this.run(job), {
      concurrency: s.concurrency,
      pollingIntervalSeconds: s.pollingIntervalSeconds,
    });
    await this.queue.work<object>(PIPELINE_TICK_QUEUE, () => this.tick(), {
      pollingIntervalSeconds: s.pollingIntervalSeconds,
    });
    // Windows are due at :30 (hourly) or 00:30 (daily); a minute tick keeps a late replica's catch-up short.
    await this.queue.schedule(PIPELINE_TICK_QUEUE, '* * * * *', {});
  }

  /** Every active pipeline: due windows enqueued, and (sync) changed windows re-queued. */
  async tick(): Promise<void> {
    for (const pipeline of await this.pipelines.active()) {
      try {
        if (pipeline.sync && pipeline.dataSource === 'events') await this.resyncChanged(pipeline);
        await this.enqueueDue(pipeline);
      } catch (error) {
        this.logger.error(`pipeline ${pipeline.id}: scheduling failed: ${(error as Error).message}`);
      }
    }
  }

  async enqueueDue(pipeline: Pipeline): Promise<void> {
    const now = this.clock.date();
    const latest = await this.windows.latestStart(pipeline.id);
    let due = dueWindows(pipeline, pipeline.createdAt, now, { after: latest });
    // People are a snapshot of the whole table: only the latest due window needs writing.
    if (pipeline.dataSource === 'people' && due.length) due = due.slice(-1);
    await this.windows.ensure(
      pipeline.id,
      due.map((w) => w.start),
    );
    const jobs = (await this.windows.unfinished(pipeline.id))
      .filter((window) => window.status !== 'running' && window.status !== 'retrying')
      .map((window) => {
        const startAfter =
          window.status === 'failed'
            ? new Date(window.updatedAt.getTime() + this.settings.failedWindowDelaySeconds * 1000)
            : undefined;
        const payload: WindowJob = {
          pipelineId: pipeline.id,
          start: window.start.toISOString(),
          generation: window.generation,
        };
        return { payload, key: `${payload.pipelineId}/${payload.start}/${payload.generation}`, startAfter };
      });
    await this.queue.enqueueMany(PIPELINE_WINDOW_QUEUE, jobs);
  }

  /**
   * Windows of the last SYNC_LOOKBACK_DAYS whose rows changed since they were written (late events,
   * deletions). A window that begins before the first UTC midnight after the project's retention line
   * is left as written: the warehouse keeps what it received, rather than getting the emptied window
   * (docs/retention.md).
   */
  async resyncChanged(pipeline: Pipeline): Promise<number> {
    const now = this.clock.now();
    const scope = await this.scopeOf(pipeline);
    const kept = scope.eventsRetentionDays === null ? 0 : now - scope.eventsRetentionDays * DAY;
    const since = new Date(
      Math.max(
        Date.parse(`${pipeline.fromDate}T00:00:00Z`),
        Math.floor(now / DAY) * DAY - SYNC_LOOKBACK_DAYS * DAY,
        Math.ceil(kept / DAY) * DAY,
      ),
    );
    const written = await this.windows.doneSince(pipeline.id, since);
    if (!written.length) return 0;
    const length = windowLength(pipeline.frequency);
    const current = new Map(
      (
        await this.exports.fingerprints(
          scope,
          length,
          since,
          new Date(written[written.length - 1].start.getTime() + length),
        )
      ).map((f) => [f.start, f.fingerprint]),
    );
    const changed = written
      .filter((w) => (current.get(w.start.getTime()) ?? '0') !== w.fingerprint)
      .map((w) => w.start);
    const resynced = await this.windows.resync(pipeline.id, changed);
    if (resynced)
      this.logger.log(`pipeline ${pipeline.id}: ${resynced} window(s) changed since written; exporting them again`);
    return resynced;
  }

  async run(job: RunningJob<WindowJob>): Promise<void> {
    const { pipelineId, generation } = job.payload;
    const start = new Date(job.payload.start);
    const found = await this.pipelines.forWorker(pipelineId);
    if (!found || found.pipeline.state === 'cancelled') return;
    const { pipeline, sealedSecret } = found;
    if (pipeline.state === 'paused') return this.windows.park(pipelineId, start, generation);
    if (!(await this.windows.claim(pipelineId, start, generation))) return;
    const window = { start, end: new Date(start.getTime() + windowLength(pipeline.frequency)) };
    try {
      const result = await this.exporter.export(
        await this.scopeOf(pipeline),
        pipeline,
        sealedSecret,
        window,
        this.clock.date(),
        job.signal,
      );
      await this.windows.complete(pipelineId, start, generation, result, this.clock.date());
    } catch (error) {
      const message = (error as Error).message;
      const final = job.attempt > this.settings.retryLimit;
      await this.windows.fail(pipelineId, start, generation, message, final);
      this.logger.warn(`pipeline ${pipelineId} window ${job.payload.start} attempt ${job.attempt} failed: ${message}`);
      if (!final) throw error;
    }
  }

  /** A job for the pipeline's stored row, which names its project; its events as the project keeps them now. */
  private async scopeOf(pipeline: Pipeline): Promise<ProjectScope> {
    const project = await this.projects.findById(pipeline.projectId);
    return projectScope(pipeline.projectId, project?.dataRetentionDays ?? null);
  }
}

import { ProjectAuthenticator } from '@analytics/auth';
import { Clock } from '@analytics/clock';
import { JobQueue } from '@analytics/jobs';
import { WriterProgress } from '@analytics/kafka';
import { projectScope } from '@analytics/tenancy';
import { Inject, Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { ImportedDataRepository } from './imported-data.repository';
import { ImportRunner } from './import-runner';
import {
  WAREHOUSE_IMPORT_SETTINGS,
  WAREHOUSE_RUN_QUEUE,
  WAREHOUSE_TICK_QUEUE,
  WarehouseImportSettings,
} from './warehouse-import-settings';
import { ImportRunsRepository } from './import-runs.repository';

/** Within the tick job's expiry; a deletion that waits longer is retried at the next tick. */
const WRITER_WAIT_MS = 300_000;

interface RunItem {
  importId: number;
}

/**
 * The worker role: once a minute (one replica per occurrence) it removes deleted imports and files a
 * run job for every due import; run jobs go to whichever replica claims them. The import's lease,
 * not the job, keeps two runs of one import apart.
 */
@Injectable()
export class WarehouseImportsWorker implements OnModuleInit {
  private readonly logger = new Logger(WarehouseImportsWorker.name);

  constructor(
    private readonly queue: JobQueue,
    private readonly repository: ImportRunsRepository,
    private readonly runner: ImportRunner,
    private readonly data: ImportedDataRepository,
    private readonly projects: ProjectAuthenticator,
    private readonly clock: Clock,
    private readonly writers: WriterProgress,
    @Inject(WAREHOUSE_IMPORT_SETTINGS) private readonly settings: WarehouseImportSettings,
  ) {}

  async onModuleInit(): Promise<void> {
    // A run that fails is recorded FAILED by the runner and waits for its next schedule: no job retry.
    const expireInSeconds = this.settings.leaseSeconds;
    await this.queue.define(WAREHOUSE_TICK_QUEUE, { retryLimit: 0, expireInSeconds: 600 });
    await this.queue.define(WAREHOUSE_RUN_QUEUE, { retryLimit: 0, expireInSeconds });
    await this.queue.work(WAREHOUSE_TICK_QUEUE, () => this.tick().then(() => undefined), {
      pollingIntervalSeconds: this.settings.pollingIntervalSeconds,
    });
    await this.queue.work<RunItem>(
      WAREHOUSE_RUN_QUEUE,
      (job) => this.runner.run(job.payload.importId, job.signal, { onlyIfDue: true }).then(() => undefined),
      {
        concurrency: 2,
        pollingIntervalSeconds: this.settings.pollingIntervalSeconds,
      },
    );
    if (this.settings.schedule) await this.queue.schedule(WAREHOUSE_TICK_QUEUE, '* * * * *', {});
  }

  /**
   * Deletions first, then runs left RUNNING by a dead worker closed, then one run job per due import
   * (keyed by import and minute: a repeated tick files nothing new).
   */
  async tick(): Promise<number[]> {
    await this.processDeletions();
    const now = this.clock.date();
    await this.repository.failAbandonedRuns(now);
    const minute = Math.floor(now.getTime() / 60_000);
    const due = await this.repository.dueImports(now);
    await this.queue.enqueueMany(
      WAREHOUSE_RUN_QUEUE,
      due.map((importId) => ({ payload: { importId }, key: `${importId}:${minute}` })),
    );
    return due;
  }

  /** Deleted imports: with delete_data, their events and profiles go (under the lease, so no run writes meanwhile), then the record. */
  async processDeletions(): Promise<void> {
    for (const importId of await this.repository.deletingImports()) {
      const now = this.clock.date();
      const lease = await this.repository.claim(
        importId,
        now,
        new Date(now.getTime() + this.settings.leaseSeconds * 1000),
        { purpose: 'delete' },
      );
      if (!lease) continue;
      const { item, owner } = lease;
      try {
        if (item.deleteData)
          await this.deleteData(item.projectId, item.id, item.kind === 'groups' ? item.mapping.group_key : undefined);
        await this.repository.removeImport(importId, owner);
      } catch (error) {
        this.logger.error(
          `deleting the data of warehouse import ${importId} failed (retried next minute): ${(error as Error).message}`,
        );
        await this.repository.release(importId, owner, { nextRunAt: undefined, succeeded: false, manual: false });
      }
    }
  }

  private async deleteData(projectId: number, importId: number, groupKey: string | undefined): Promise<void> {
    // Under the lease nothing new is produced for this import; wait until the writers stored what
    // earlier runs handed to Kafka, so the delete reaches every event (compliance's own wait).
    await this.writers.waitFor(await this.writers.produced(), { timeoutMs: WRITER_WAIT_MS });
    // A job for a stored import: the import's row names the project.
    const scope = projectScope(projectId);
    await this.data.deleteEvents(scope, importId);
    const left = await this.data.countEvents(scope, importId);
    if (left > 0) throw new Error(`${left} events of the import are left after the delete`);
    const project = await this.projects.byId(projectId);
    if (!project) return;
    await this.runner.deleteProfiles(project, groupKey, await this.data.profileIds(scope, importId, groupKey ?? ''));
  }
}

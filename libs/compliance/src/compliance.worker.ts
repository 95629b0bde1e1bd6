import { DownloadLinks } from '@analytics/object-store';
import { JobQueue, RunningJob } from '@analytics/jobs';
import { GroupKeysService, ProjectsService } from '@analytics/projects';
import { ProjectScope, projectScope } from '@analytics/tenancy';
import { Inject, Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { ComplianceJob, ComplianceKind, FINISHED } from './compliance-job';
import { ComplianceJobsRepository } from './compliance-jobs.repository';
import { ComplianceStaging } from './compliance-staging';
import { COMPLIANCE_SETTINGS, ComplianceSettings } from './compliance-settings';
import { queueOf } from './compliance.service';
import { DeletionRepository } from './deletion.repository';
import { RetrievalRepository } from './retrieval.repository';

interface WorkItem {
  id: string;
}

/** The object key of a retrieval's file: deterministic, so a repeated attempt overwrites it. */
export const retrievalKey = (job: ComplianceJob) => `data-retrievals/${job.projectId}/${job.id}.ndjson.gz`;

/**
 * Runs compliance jobs: PENDING → STAGING (bounds fixed at the request, ids expanded to their
 * identity clusters) → STARTED (no way back) → SUCCESS, or FAILURE once the last attempt failed.
 * Attempts are idempotent: deletions are bounded by the request time, retrieval files have one
 * name per job.
 */
@Injectable()
export class ComplianceWorker implements OnModuleInit {
  private readonly logger = new Logger(ComplianceWorker.name);

  constructor(
    private readonly queue: JobQueue,
    private readonly jobs: ComplianceJobsRepository,
    private readonly deletions: DeletionRepository,
    private readonly retrievals: RetrievalRepository,
    private readonly links: DownloadLinks,
    @Inject(COMPLIANCE_SETTINGS) private readonly settings: ComplianceSettings,
    private readonly staging: ComplianceStaging,
    private readonly groupKeys: GroupKeysService,
    private readonly projects: ProjectsService,
  ) {}

  async onModuleInit(): Promise<void> {
    const policy = {
      retryLimit: this.settings.retryLimit,
      retryDelaySeconds: this.settings.retryDelaySeconds,
      retryBackoff: true,
      expireInSeconds: this.settings.expireInSeconds,
      heartbeatSeconds: this.settings.heartbeatSeconds,
    };
    for (const kind of ['deletion', 'retrieval'] as ComplianceKind[]) {
      await this.queue.define(queueOf(kind), policy);
      await this.queue.work<WorkItem>(queueOf(kind), (job) => this.run(job), {
        pollingIntervalSeconds: this.settings.pollingIntervalSeconds,
      });
    }
  }

  async run(item: RunningJob<WorkItem>): Promise<void> {
    const job = await this.jobs.byId(item.payload.id);
    if (!job || FINISHED.includes(job.status)) return;
    // The job acts on the project of its stored row, which an authenticated request created; a
    // retrieval reads the events the project keeps now (docs/retention.md).
    const stored = await this.projects.findById(job.projectId);
    const project = projectScope(job.projectId, stored?.dataRetentionDays ?? null);
    await this.jobs.transition(job.id, ['PENDING'], 'STAGING');
    try {
      // Still cancellable while the writers catch up and the ids are expanded to their identity clusters.
      const distinctIds = await this.staging.scope(job, project, item.signal);
      // A cancel that won the race leaves the job REVOKED: nothing is done.
      if (!(await this.jobs.transition(job.id, ['STAGING', 'STARTED'], 'STARTED'))) return;
      if (job.kind === 'deletion') await this.delete(job, project, distinctIds, item.signal);
      else await this.retrieve(job, project, distinctIds, item.signal);
    } catch (error) {
      const reason = (error as Error).message;
      if (item.attempt <= this.settings.retryLimit) throw error;
      this.logger.error(`compliance ${job.kind} ${job.id} failed after ${item.attempt} attempts: ${reason}`);
      await this.jobs.transition(job.id, ['STAGING', 'STARTED'], 'FAILURE', { error: reason });
    }
  }

  /** `distinctIds`: the requested ids and every id of their clusters; the job record keeps the requested ones (the status answers with them). */
  private async delete(
    job: ComplianceJob,
    project: ProjectScope,
    distinctIds: string[],
    signal: AbortSignal,
  ): Promise<void> {
    const scope = { project, distinctIds, ingestedBefore: job.requestedAt };
    await this.deletions.delete(scope, signal);
    const left = Object.entries(await this.deletions.remaining(scope, signal)).filter(([, n]) => n > 0);
    if (left.length)
      throw new Error(`rows left after the delete: ${left.map(([table, n]) => `${table} ${n}`).join(', ')}`);
    await this.jobs.transition(job.id, ['STARTED'], 'SUCCESS');
  }

  private async retrieve(
    job: ComplianceJob,
    project: ProjectScope,
    distinctIds: string[],
    signal: AbortSignal,
  ): Promise<void> {
    const key = retrievalKey(job);
    const since =
      job.complianceType === 'CCPA'
        ? new Date(job.requestedAt.getTime() - this.settings.ccpaWindowDays * 86_400_000)
        : undefined;
    // Only a Data retrieval lists group memberships.
    const groupKeys =
      job.disclosureType === 'Data' ? (await this.groupKeys.list(project)).map((groupKey) => groupKey.name) : [];
    await this.retrievals.write(
      key,
      { project, distinctIds, disclosureType: job.disclosureType, since, groupKeys },
      signal,
    );
    await this.jobs.transition(job.id, ['STARTED'], 'SUCCESS', {
      resultUrl: this.links.url(key, { ttlSeconds: this.settings.linkTtlSeconds }),
    });
  }
}

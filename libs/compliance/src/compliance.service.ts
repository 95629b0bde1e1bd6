import { Clock, IdSource } from '@analytics/clock';
import { JobQueue } from '@analytics/jobs';
import { RateLimit, RateLimiterFactory } from '@analytics/rate-limits';
import { ProjectScope } from '@analytics/tenancy';
import { Inject, Injectable } from '@nestjs/common';
import { ComplianceError, ComplianceErrorCode } from './compliance-error';
import { CANCELLABLE, ComplianceJob, ComplianceKind } from './compliance-job';
import { ComplianceJobsRepository } from './compliance-jobs.repository';
import { ComplianceRequest } from './compliance-request';
import {
  COMPLIANCE_SETTINGS,
  ComplianceSettings,
  DATA_DELETION_QUEUE,
  DATA_RETRIEVAL_QUEUE,
} from './compliance-settings';

export const queueOf = (kind: ComplianceKind) => (kind === 'deletion' ? DATA_DELETION_QUEUE : DATA_RETRIEVAL_QUEUE);

/** Creates, reads and cancels compliance jobs; the work itself is ComplianceWorker's. */
@Injectable()
export class ComplianceService {
  private readonly creates: RateLimit;

  constructor(
    private readonly jobs: ComplianceJobsRepository,
    private readonly queue: JobQueue,
    @Inject(Clock) private readonly clock: Clock,
    @Inject(IdSource) private readonly ids: IdSource,
    @Inject(COMPLIANCE_SETTINGS) private readonly settings: ComplianceSettings,
    limits: RateLimiterFactory,
  ) {
    // Retrievals and deletions share the project's budget (Redis-backed across replicas when configured).
    this.creates = limits.create({ name: 'compliance-create', points: settings.createsPerSecond, durationSeconds: 1 });
  }

  /** One create per second per project; records the job (PENDING), then enqueues its work keyed by its id, so a repeat enqueues nothing. */
  async create(request: ComplianceRequest): Promise<ComplianceJob> {
    const decision = await this.creates.consume(request.scope.projectId);
    if (!decision.allowed)
      throw new ComplianceError(
        ComplianceErrorCode.RateLimited,
        'one compliance request per second per project',
        decision.retryAfterSeconds,
      );
    const job: ComplianceJob = {
      id: this.ids.uuid(),
      kind: request.kind,
      projectId: request.scope.projectId,
      status: 'PENDING',
      complianceType: request.complianceType,
      disclosureType: request.disclosureType,
      distinctIds: request.distinctIds,
      requestingUser: request.requestingUser,
      requestedAt: this.clock.date(),
      resultUrl: null,
      error: null,
    };
    await this.jobs.insert(request.scope, job);
    await this.queue.enqueue(
      queueOf(job.kind),
      { id: job.id },
      {
        key: job.id,
        ...(this.settings.startAfterSeconds
          ? { startAfter: new Date(job.requestedAt.getTime() + this.settings.startAfterSeconds * 1000) }
          : {}),
      },
    );
    return job;
  }

  find(scope: ProjectScope, kind: ComplianceKind, id: string): Promise<ComplianceJob | undefined> {
    return this.jobs.find(scope, kind, id);
  }

  /** Cancels a deletion still PENDING or STAGING; refuses once STARTED; a cancelled one stays cancelled. */
  async cancel(scope: ProjectScope, id: string): Promise<void> {
    const job = await this.jobs.find(scope, 'deletion', id);
    if (!job) throw new ComplianceError(ComplianceErrorCode.NotFound, `no deletion ${id} in this project`);
    if (job.status === 'REVOKED') return;
    if (await this.jobs.transition(id, CANCELLABLE, 'REVOKED')) return;
    const now = (await this.jobs.find(scope, 'deletion', id))?.status ?? job.status;
    if (now === 'REVOKED') return;
    throw new ComplianceError(
      ComplianceErrorCode.NotCancellable,
      `the deletion is ${now}: it can no longer be cancelled`,
    );
  }
}

import { Clock } from '@analytics/clock';
import { ErasedIdsRepository } from '@analytics/erasures';
import { IdentityRepository } from '@analytics/identity';
import { WriterProgress } from '@analytics/kafka';
import { ProjectScope } from '@analytics/tenancy';
import { Inject, Injectable } from '@nestjs/common';
import { ComplianceJob } from './compliance-job';
import { COMPLIANCE_SETTINGS, ComplianceSettings } from './compliance-settings';

/**
 * The STAGING phase of a job: the ids it covers, fixed before it starts. A deletion first waits
 * for the writers to store what was acknowledged before the request (identity links included);
 * then every requested id is expanded to all the ids of its identity cluster (docs/identity.md), as
 * the real API deletes and retrieves "the data of every id an alias maps to". One query for all ids.
 * A deletion records the ids it covers before it starts (`erased_ids`): dead letters of those ids
 * are dropped by dlq:replay from then on.
 */
@Injectable()
export class ComplianceStaging {
  constructor(
    private readonly writers: WriterProgress,
    private readonly identities: IdentityRepository,
    private readonly erasures: ErasedIdsRepository,
    @Inject(Clock) private readonly clock: Clock,
    @Inject(COMPLIANCE_SETTINGS) private readonly settings: ComplianceSettings,
  ) {}

  async scope(job: ComplianceJob, project: ProjectScope, signal: AbortSignal): Promise<string[]> {
    if (job.kind === 'retrieval') return this.identities.clustersOf(project, job.distinctIds);
    await this.writers.waitFor(await this.writers.produced(), {
      timeoutMs: this.settings.writerWaitSeconds * 1000,
      signal,
    });
    const distinctIds = await this.identities.clustersOf(project, job.distinctIds);
    // Every letter acknowledged before the request was stored or dead-lettered by now (the writers passed it).
    await this.erasures.record(project, job, distinctIds, this.clock.date());
    return distinctIds;
  }
}

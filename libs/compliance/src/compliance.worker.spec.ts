import { RunningJob } from '@analytics/jobs';
import { ProjectScope, projectScope } from '@analytics/tenancy';
import { ComplianceJob, StoredStatus } from './compliance-job';
import { ComplianceJobsRepository } from './compliance-jobs.repository';
import { DEFAULT_COMPLIANCE_SETTINGS } from './compliance-settings';
import { ComplianceService } from './compliance.service';
import { ComplianceWorker } from './compliance.worker';
import { DeletionRepository } from './deletion.repository';

/** The job table in memory, with the repository's conditional transitions. */
class MemoryJobs {
  readonly rows = new Map<string, ComplianceJob>();
  async find(scope: ProjectScope, kind: string, id: string) {
    const job = this.rows.get(id);
    return job && job.projectId === scope.projectId && job.kind === kind ? { ...job } : undefined;
  }
  async byId(id: string) {
    const job = this.rows.get(id);
    return job && { ...job };
  }
  async transition(id: string, from: readonly StoredStatus[], to: StoredStatus, fields: { error?: string } = {}) {
    const job = this.rows.get(id);
    if (!job || !from.includes(job.status)) return false;
    this.rows.set(id, { ...job, status: to, error: fields.error ?? job.error });
    return true;
  }
}

const deletion = (status: StoredStatus): ComplianceJob => ({
  id: 'job-1',
  kind: 'deletion',
  projectId: 1,
  status,
  complianceType: 'GDPR',
  disclosureType: 'Data',
  distinctIds: ['a'],
  requestingUser: 'sa',
  requestedAt: new Date('2026-01-01T00:00:00Z'),
  resultUrl: null,
  error: null,
});

function setup(status: StoredStatus, left: Record<string, number>[] = [{}]) {
  const jobs = new MemoryJobs();
  jobs.rows.set('job-1', deletion(status));
  const deletions = { delete: jest.fn(async () => undefined), remaining: jest.fn(async () => left.shift() ?? {}) };
  const settings = { ...DEFAULT_COMPLIANCE_SETTINGS, retryLimit: 1 };
  const worker = new ComplianceWorker(
    {} as never,
    jobs as unknown as ComplianceJobsRepository,
    deletions as unknown as DeletionRepository,
    {} as never,
    {} as never,
    settings,
    { scope: async (job: ComplianceJob) => job.distinctIds } as never,
    { list: async () => [] } as never,
    { findById: async () => undefined } as never,
  );
  const service = new ComplianceService(
    jobs as unknown as ComplianceJobsRepository,
    {} as never,
    {} as never,
    {} as never,
    settings,
    { create: () => ({}) } as never,
  );
  const run = (attempt: number) =>
    worker.run({
      id: 'pgboss-1',
      name: 'q',
      payload: { id: 'job-1' },
      attempt,
      signal: new AbortController().signal,
    } as RunningJob<{ id: string }>);
  return { jobs, deletions, worker, service, run, status: () => jobs.rows.get('job-1')!.status };
}

describe('compliance job states', () => {
  it('runs a PENDING deletion through STAGING and STARTED to SUCCESS when nothing is left', async () => {
    const s = setup('PENDING', [{ 'clickhouse.events': 0 }]);
    await s.run(1);
    expect(s.deletions.delete).toHaveBeenCalledWith(
      { project: projectScope(1), distinctIds: ['a'], ingestedBefore: new Date('2026-01-01T00:00:00Z') },
      expect.anything(),
    );
    expect(s.status()).toBe('SUCCESS');
  });

  it('retries while rows are left, then FAILURE with the counts after the last attempt', async () => {
    const s = setup('PENDING', [{ 'clickhouse.events': 3 }, { 'clickhouse.events': 2 }]);
    await expect(s.run(1)).rejects.toThrow('rows left after the delete: clickhouse.events 3');
    expect(s.status()).toBe('STARTED');
    await s.run(2);
    expect(s.status()).toBe('FAILURE');
    expect(s.jobs.rows.get('job-1')!.error).toBe('rows left after the delete: clickhouse.events 2');
  });

  it('finishes once a job whose worker died after STARTED (its next attempt repeats the bounded delete)', async () => {
    const s = setup('STARTED', [{ 'clickhouse.events': 0 }]);
    await s.run(2);
    expect(s.deletions.delete).toHaveBeenCalledTimes(1);
    expect(s.status()).toBe('SUCCESS');
    await s.run(3);
    expect(s.deletions.delete).toHaveBeenCalledTimes(1);
  });

  it('does nothing for a REVOKED or finished job', async () => {
    for (const status of ['REVOKED', 'SUCCESS', 'FAILURE'] as StoredStatus[]) {
      const s = setup(status);
      await s.run(1);
      expect(s.deletions.delete).not.toHaveBeenCalled();
      expect(s.status()).toBe(status);
    }
  });

  it('cancels while PENDING or STAGING (REVOKED, again without error), refuses with 405 from STARTED on', async () => {
    for (const status of ['PENDING', 'STAGING', 'REVOKED'] as StoredStatus[]) {
      const s = setup(status);
      await s.service.cancel(projectScope(1), 'job-1');
      expect(s.status()).toBe('REVOKED');
    }
    for (const status of ['STARTED', 'SUCCESS', 'FAILURE'] as StoredStatus[]) {
      const s = setup(status);
      await expect(s.service.cancel(projectScope(1), 'job-1')).rejects.toMatchObject({ status: 405 });
      expect(s.status()).toBe(status);
    }
    await expect(setup('PENDING').service.cancel(projectScope(2), 'job-1')).rejects.toMatchObject({ status: 404 });
  });
});

import { Postgres, selectRows } from '@analytics/postgres';
import { pgSql, ProjectScope } from '@analytics/tenancy';
import { Injectable } from '@nestjs/common';
import { sql } from 'drizzle-orm';
import { ComplianceJob, ComplianceKind, StoredStatus } from './compliance-job';

interface JobRow {
  id: string;
  kind: ComplianceKind;
  project_id: number;
  status: StoredStatus;
  compliance_type: ComplianceJob['complianceType'];
  disclosure_type: ComplianceJob['disclosureType'];
  distinct_ids: string[];
  requesting_user: string;
  requested_at: Date | string;
  result_url: string | null;
  error: string | null;
}

const toJob = (row: JobRow): ComplianceJob => ({
  id: row.id,
  kind: row.kind,
  projectId: row.project_id,
  status: row.status,
  complianceType: row.compliance_type,
  disclosureType: row.disclosure_type,
  distinctIds: row.distinct_ids,
  requestingUser: row.requesting_user,
  requestedAt: new Date(row.requested_at),
  resultUrl: row.result_url,
  error: row.error,
});

/** The compliance job records (migration 6; pg-boss holds only the work item); every API query takes the project's scope. */
@Injectable()
export class ComplianceJobsRepository {
  constructor(private readonly postgres: Postgres) {}

  async insert(scope: ProjectScope, job: ComplianceJob): Promise<void> {
    await this.postgres.db.execute(sql`insert into compliance_jobs
      (id, kind, project_id, status, compliance_type, disclosure_type, distinct_ids, requesting_user, requested_at)
      values (${job.id}, ${job.kind}, ${scope.projectId}, ${job.status}, ${job.complianceType}, ${job.disclosureType},
              ${JSON.stringify(job.distinctIds)}::jsonb, ${job.requestingUser}, ${job.requestedAt.toISOString()})`);
  }

  async find(scope: ProjectScope, kind: ComplianceKind, id: string): Promise<ComplianceJob | undefined> {
    const [row] = await selectRows<JobRow>(
      this.postgres.db,
      pgSql`select * from compliance_jobs where ${scope} and kind = ${kind} and id = ${id}`,
    );
    return row && toJob(row);
  }

  /** For the worker, which has the id from its work item only. */
  async byId(id: string): Promise<ComplianceJob | undefined> {
    const [row] = await selectRows<JobRow>(this.postgres.db, sql`select * from compliance_jobs where id = ${id}`);
    return row && toJob(row);
  }

  /** Moves the job from one of `from` to `to`; false when it was in none of them (cancelled, finished). */
  async transition(
    id: string,
    from: readonly StoredStatus[],
    to: StoredStatus,
    fields: { resultUrl?: string; error?: string } = {},
  ): Promise<boolean> {
    const rows = await selectRows<{ id: string }>(
      this.postgres.db,
      sql`update compliance_jobs set status = ${to}, result_url = coalesce(${fields.resultUrl ?? null}, result_url),
            error = coalesce(${fields.error ?? null}, error), updated_at = now()
          where id = ${id} and status in (${sql.join(
            from.map((s) => sql`${s}`),
            sql`, `,
          )}) returning id`,
    );
    return rows.length > 0;
  }
}

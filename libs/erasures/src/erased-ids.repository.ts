import { Postgres, selectRows } from '@analytics/postgres';
import { pgScopes, ProjectScope, ScopedRows } from '@analytics/tenancy';
import { Injectable } from '@nestjs/common';
import { sql } from 'drizzle-orm';
import { createHash } from 'node:crypto';

/** How an id is kept in `erased_ids`: its SHA-256, so the table cannot list the ids it holds. */
export const erasedIdDigest = (distinctId: string): string => createHash('sha256').update(distinctId).digest('hex');

/** A deletion job as far as this table is concerned (a `compliance_jobs` row of the scope's project). */
export interface DeletionRef {
  id: string;
  requestedAt: Date;
}

/** The bounds of the started deletions that covered one id (the latest of each when several did). */
export interface Erasure {
  /** Events of the id acknowledged (`processed_at`) before this were erased. */
  requestedAt: Date;
  /** Profile updates and identity links of the id applied before this were erased. */
  startedAt: Date;
}

/** One id of one project, as dead letters name it. */
export interface ProjectId {
  projectId: number;
  distinctId: string;
}

export const projectIdKey = ({ projectId, distinctId }: ProjectId): string =>
  `${projectId}:${erasedIdDigest(distinctId)}`;

interface ErasureRow {
  project_id: number;
  id_digest: string;
  requested_at: Date | string;
  started_at: Date | string;
}

/**
 * The ids each deletion covered (Postgres migration 10), recorded when it leaves STAGING: what dlq:replay
 * checks dead letters against, since Kafka cannot delete a message from a dead-letter topic. Every
 * method reads or writes the rows of the projects its scopes name (one statement for many projects).
 */
@Injectable()
export class ErasedIdsRepository {
  constructor(private readonly postgres: Postgres) {}

  /** Records the ids a deletion covers; a retried attempt moves `startedAt` on (it deletes again). */
  async record(scope: ProjectScope, job: DeletionRef, distinctIds: string[], startedAt: Date): Promise<void> {
    await this.postgres.db.execute(sql`insert into erased_ids (job_id, project_id, id_digest, requested_at, started_at)
      select ${job.id}, ${scope.projectId}, d, ${job.requestedAt.toISOString()}, ${startedAt.toISOString()}
      from jsonb_array_elements_text(${JSON.stringify(distinctIds.map(erasedIdDigest))}::jsonb) as d
      on conflict (project_id, id_digest, job_id) do update set started_at = excluded.started_at`);
  }

  /** Deletions of the projects that have not fixed their ids yet (PENDING, STAGING): a replay waits for them. */
  async unstarted(scopes: ProjectScope[]): Promise<{ id: string; projectId: number }[]> {
    if (!scopes.length) return [];
    const rows = await selectRows<{ id: string; project_id: number }>(
      this.postgres.db,
      sql`select j.id, j.project_id from compliance_jobs j where j.kind = 'deletion' and j.status in ('PENDING', 'STAGING') and ${pgScopes(scopes, 'j')}`,
    );
    return rows.map((row) => ({ id: row.id, projectId: row.project_id }));
  }

  /** The erasures of the groups' ids (each group one project's) covered by a deletion that was not cancelled, keyed by `projectIdKey`. */
  async covering(groups: ScopedRows<string>[]): Promise<Map<string, Erasure>> {
    const wanted = new Map<string, { project_id: number; id_digest: string }>();
    for (const { scope, rows } of groups) {
      for (const distinctId of rows) {
        const digest = erasedIdDigest(distinctId);
        wanted.set(`${scope.projectId}:${digest}`, { project_id: scope.projectId, id_digest: digest });
      }
    }
    if (!wanted.size) return new Map();
    const rows = await selectRows<ErasureRow>(
      this.postgres.db,
      sql`select e.project_id, e.id_digest, max(e.requested_at) as requested_at, max(e.started_at) as started_at
          from erased_ids e
          join jsonb_to_recordset(${JSON.stringify([...wanted.values()])}::jsonb) as k(project_id integer, id_digest text) on ${pgScopes(
            groups.map(({ scope }) => scope),
            'e',
            'k',
          )} and e.id_digest = k.id_digest
          join compliance_jobs j on j.id = e.job_id and j.status <> 'REVOKED'
          group by e.project_id, e.id_digest`,
    );
    return new Map(
      rows.map((row) => [
        `${row.project_id}:${row.id_digest}`,
        { requestedAt: new Date(row.requested_at), startedAt: new Date(row.started_at) },
      ]),
    );
  }
}

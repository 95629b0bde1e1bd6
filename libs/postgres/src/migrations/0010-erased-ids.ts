import { sqlMigration } from '../postgres-migration';

/**
 * The ids each started deletion covered (its requested ids expanded to their identity clusters),
 * so that `dlq:replay` drops dead letters a deletion would have erased had they been stored. The
 * ids are kept as SHA-256 digests, not as text: the table answers "was this id erased?", never
 * "which ids were erased". `requested_at` bounds events (acknowledged before it: erased);
 * `started_at`, when the deletion began deleting, bounds dead-lettered profile updates and links.
 */
export const erasedIds = sqlMigration(10, 'erased_ids', [
  `create table if not exists erased_ids (
    job_id text not null references compliance_jobs (id) on delete cascade,
    project_id integer not null references projects (id) on delete cascade,
    id_digest text not null,
    requested_at timestamptz not null,
    started_at timestamptz not null,
    primary key (project_id, id_digest, job_id)
  )`,
]);

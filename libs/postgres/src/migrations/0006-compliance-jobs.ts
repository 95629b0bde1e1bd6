import { sqlMigration } from '../postgres-migration';

/**
 * The compliance job records (the state the status endpoints answer with; pg-boss keeps only the
 * work item). `distinct_ids` is the request as made: it is the one table a deletion keeps.
 */
export const complianceJobs = sqlMigration(6, 'compliance_jobs', [
  `create table if not exists compliance_jobs (
    id text primary key,
    kind text not null,
    project_id integer not null references projects (id) on delete cascade,
    status text not null,
    compliance_type text not null,
    disclosure_type text not null,
    distinct_ids jsonb not null,
    requesting_user text not null,
    requested_at timestamptz not null,
    result_url text,
    error text,
    updated_at timestamptz not null default now()
  )`,
  'create index if not exists compliance_jobs_project on compliance_jobs (project_id, kind)',
]);

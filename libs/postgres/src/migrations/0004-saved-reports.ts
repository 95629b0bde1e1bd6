import { sqlMigration } from '../postgres-migration';

/**
 * Saved reports of a project: insights bookmarks, funnels and cohorts, one table told apart by
 * `kind`. The definition is validated JSON (libs/reports); ids are shared across kinds.
 */
export const savedReports = sqlMigration(4, 'saved_reports', [
  `create table if not exists saved_reports (
    id serial primary key,
    project_id integer not null references projects (id) on delete cascade,
    kind text not null check (kind in ('bookmark', 'funnel', 'cohort')),
    name text not null,
    description text not null default '',
    is_visible boolean not null default true,
    definition jsonb not null,
    created_at timestamptz not null default now(),
    updated_at timestamptz not null default now()
  )`,
  'create index if not exists saved_reports_project_kind on saved_reports (project_id, kind, id)',
]);

import { sqlMigration } from '../postgres-migration';

export const organizationsAndProjects = sqlMigration(1, 'organizations_and_projects', [
  `create table if not exists organizations (
    id serial primary key,
    name text not null,
    created_at timestamptz not null default now()
  )`,
  `create table if not exists projects (
    id serial primary key,
    organization_id integer not null references organizations (id) on delete cascade,
    name text not null,
    token text not null unique,
    secret_hash text not null,
    secret_lookup text not null,
    region text not null default 'US' check (region in ('US', 'EU', 'IN')),
    created_at timestamptz not null default now()
  )`,
  'create index if not exists projects_secret_lookup on projects (secret_lookup)',
  'create index if not exists projects_organization on projects (organization_id)',
]);

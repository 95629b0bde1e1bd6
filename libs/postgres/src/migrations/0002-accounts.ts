import { sqlMigration } from '../postgres-migration';

const ROLE_CHECK = "check (role in ('owner', 'admin', 'analyst', 'consumer'))";

/** Users (as far as `creator`, `user` and annotations need), service accounts, project roles, OAuth tokens. */
export const accounts = sqlMigration(2, 'accounts', [
  `create table if not exists users (
    id serial primary key,
    organization_id integer not null references organizations (id) on delete cascade,
    first_name text not null default '',
    last_name text not null default '',
    created_at timestamptz not null default now()
  )`,
  `create table if not exists service_accounts (
    id serial primary key,
    organization_id integer not null references organizations (id) on delete cascade,
    user_id integer not null references users (id) on delete cascade,
    username text not null unique,
    secret_hash text not null,
    role text not null ${ROLE_CHECK},
    creator integer references users (id) on delete set null,
    expires timestamptz,
    last_used timestamptz,
    created timestamptz not null default now()
  )`,
  'create index if not exists service_accounts_organization on service_accounts (organization_id)',
  `create table if not exists service_account_projects (
    service_account_id integer not null references service_accounts (id) on delete cascade,
    project_id integer not null references projects (id) on delete cascade,
    role text not null ${ROLE_CHECK},
    primary key (service_account_id, project_id)
  )`,
  `create table if not exists oauth_tokens (
    id serial primary key,
    service_account_id integer not null references service_accounts (id) on delete cascade,
    token_hash text not null,
    token_lookup text not null,
    expires_at timestamptz not null,
    created_at timestamptz not null default now()
  )`,
  'create index if not exists oauth_tokens_lookup on oauth_tokens (token_lookup)',
]);

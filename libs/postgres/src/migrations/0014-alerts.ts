import { sqlMigration } from '../postgres-migration';

/**
 * Alerts on saved insights reports (docs/alerts.md) and their history. `last_period` is the latest
 * report period an alert was evaluated for: claimed atomically before a delivery, so no period
 * fires twice whichever replica checks it. The signing secret is sealed (libs/secrets' SecretBox).
 * Each delivery attempt is a row of alert_deliveries; a check that did not fire is one row, attempt 0.
 */
export const alerts = sqlMigration(14, 'alerts', [
  `create table if not exists alerts (
    id serial primary key,
    project_id integer not null references projects (id) on delete cascade,
    bookmark_id integer not null references saved_reports (id) on delete cascade,
    name text not null,
    rule text not null check (rule in ('above', 'below', 'changed_by_percent')),
    threshold double precision not null,
    series text,
    cadence text not null check (cadence in ('hourly', 'daily')),
    webhook_url text not null,
    signing_secret text not null,
    enabled boolean not null default true,
    last_period text,
    last_state text not null default 'pending' check (last_state in ('pending', 'ok', 'fired', 'error')),
    last_checked_at timestamptz,
    created_at timestamptz not null default now(),
    updated_at timestamptz not null default now()
  )`,
  'create index if not exists alerts_project on alerts (project_id, id)',
  `create table if not exists alert_deliveries (
    id bigserial primary key,
    alert_id integer not null references alerts (id) on delete cascade,
    project_id integer not null references projects (id) on delete cascade,
    at timestamptz not null default now(),
    period text,
    value double precision,
    previous_value double precision,
    fired boolean not null,
    test boolean not null default false,
    attempt integer not null default 0,
    http_status integer,
    error text
  )`,
  'create index if not exists alert_deliveries_alert on alert_deliveries (alert_id, id)',
]);

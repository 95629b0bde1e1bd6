import { sqlMigration } from '../postgres-migration';

/**
 * Data pipelines and their windows.
 * - `pipelines.destination`: bucket, region, prefix, endpoint, key id (never the secret key, which
 *   sits sealed in `secret_sealed`); `warehouse`: the BigQuery/Snowflake target, if any.
 * - One live pipeline per (project, name): a cancelled one frees its name.
 * - `pipeline_windows`: one row per exported (or due) window. `generation` is part of the job key,
 *   bumped whenever the window must run again (a re-sync, a resume, a window that ran out of
 *   retries), so a new job is enqueued exactly once across replicas. `synced_at` lists every time
 *   the window was written (the timeline); `fingerprint` is what the destination holds (rows and
 *   latest ingestion time), which sync compares with ClickHouse.
 */
export const pipelines = sqlMigration(9, 'pipelines', [
  `create table if not exists pipelines (
    id serial primary key,
    project_id integer not null references projects (id) on delete cascade,
    name text not null,
    type text not null,
    trial boolean not null,
    schema_type text not null,
    data_source text not null,
    frequency text not null,
    data_format text not null,
    sync boolean not null,
    from_date date not null,
    to_date date,
    destination jsonb not null,
    secret_sealed text,
    warehouse jsonb,
    state text not null default 'active',
    created_at timestamptz not null,
    updated_at timestamptz not null default now()
  )`,
  `create unique index if not exists pipelines_live_name on pipelines (project_id, name) where state <> 'cancelled'`,
  `create table if not exists pipeline_windows (
    pipeline_id integer not null references pipelines (id) on delete cascade,
    window_start timestamptz not null,
    status text not null,
    generation integer not null default 0,
    attempts integer not null default 0,
    rows bigint,
    fingerprint text,
    objects jsonb,
    synced_at timestamptz[] not null default '{}',
    error text,
    updated_at timestamptz not null default now(),
    primary key (pipeline_id, window_start)
  )`,
]);

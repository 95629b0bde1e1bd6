import { sqlMigration } from '../postgres-migration';

/**
 * Warehouse sources and imports (libs/warehouse-imports).
 * - `warehouse_sources.connection_sealed`: the connection (with its password) encrypted with
 *   AES-256-GCM; `connection_public` holds only what the API may show (host, port, database, user).
 * - `warehouse_imports.watermark`: the last committed insert-time value (text, as the source
 *   rendered it), advanced only after a page was acknowledged by the intake.
 * - `lease_owner`/`lease_until`: the run in progress; a run claims the lease before it reads, so
 *   runs of one import never overlap across replicas.
 * - `warehouse_import_runs`: the history (the API shows the last 30).
 */
export const warehouseImports = sqlMigration(7, 'warehouse_imports', [
  `create table if not exists warehouse_sources (
    id serial primary key,
    project_id integer not null references projects (id) on delete cascade,
    name text not null,
    type text not null,
    connection_public jsonb not null,
    connection_sealed text not null,
    created_at timestamptz not null default now()
  )`,
  `create table if not exists warehouse_imports (
    id serial primary key,
    project_id integer not null references projects (id) on delete cascade,
    source_id integer not null references warehouse_sources (id),
    kind text not null,
    name text not null,
    mapping jsonb not null,
    sync_mode text not null,
    run_every bigint not null,
    paused boolean not null default false,
    watermark text,
    next_run_at timestamptz,
    manual_requested boolean not null default false,
    succeeded_once boolean not null default false,
    lease_owner text,
    lease_until timestamptz,
    deleting boolean not null default false,
    delete_data boolean not null default false,
    created_at timestamptz not null default now()
  )`,
  'create index if not exists warehouse_imports_project on warehouse_imports (project_id)',
  `create table if not exists warehouse_import_runs (
    id serial primary key,
    import_id integer not null references warehouse_imports (id) on delete cascade,
    status text not null,
    trigger text not null,
    started_at timestamptz not null,
    finished_at timestamptz,
    rows_read bigint not null default 0,
    rows_imported bigint not null default 0,
    rows_failed bigint not null default 0,
    error text
  )`,
  'create index if not exists warehouse_import_runs_import on warehouse_import_runs (import_id, id desc)',
]);

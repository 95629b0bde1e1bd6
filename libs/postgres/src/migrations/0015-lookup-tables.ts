import { sqlMigration } from '../postgres-migration';

/**
 * Lookup tables' metadata (libs/lookup-tables, docs/lookup-tables.md): the name, the property the
 * table is mapped to (an event or a profile property; one table per property), its columns, and
 * `version`, the version of its rows in ClickHouse's lookup_table_rows that readers read.
 * `reserved_version` hands each replace a version of its own before it writes rows.
 */
export const lookupTables = sqlMigration(15, 'lookup_tables', [
  `create table if not exists lookup_tables (
    id uuid primary key default gen_random_uuid(),
    project_id integer not null references projects (id) on delete cascade,
    name text not null,
    mapped_source text check (mapped_source in ('event', 'profile')),
    mapped_property text,
    version bigint not null default 0,
    reserved_version bigint not null default 0,
    columns jsonb not null default '[]',
    row_count integer not null default 0,
    created_at timestamptz not null default now(),
    updated_at timestamptz not null default now(),
    check ((mapped_source is null) = (mapped_property is null))
  )`,
  'create index if not exists lookup_tables_project on lookup_tables (project_id, name)',
  `create unique index if not exists lookup_tables_mapping
    on lookup_tables (project_id, mapped_source, mapped_property) where mapped_source is not null`,
]);

import { sqlMigration } from '../postgres-migration';

/**
 * Annotations with their tags, and the data dictionary.
 * - `annotations.user_id`: the user of the account that created it (none for a project secret).
 * - `dictionary_schemas.schema_json`: the schema as uploaded, metadata merged (`json`, not `jsonb`,
 *   so property order survives). `dropped` and `dropped_properties` are derived from it when it is
 *   written, so the gateways' refresh reads a few small columns, through the partial index.
 */
export const annotationsAndDictionary = sqlMigration(5, 'annotations_and_dictionary', [
  `create table if not exists annotation_tags (
    id serial primary key,
    project_id integer not null references projects (id) on delete cascade,
    name text not null,
    created_at timestamptz not null default now(),
    unique (project_id, name)
  )`,
  `create table if not exists annotations (
    id serial primary key,
    project_id integer not null references projects (id) on delete cascade,
    date timestamptz not null,
    description text not null,
    user_id integer references users (id) on delete set null,
    created_at timestamptz not null default now()
  )`,
  'create index if not exists annotations_project_date on annotations (project_id, date)',
  `create table if not exists annotation_tag_links (
    annotation_id integer not null references annotations (id) on delete cascade,
    tag_id integer not null references annotation_tags (id) on delete cascade,
    primary key (annotation_id, tag_id)
  )`,
  'create index if not exists annotation_tag_links_tag on annotation_tag_links (tag_id)',
  `create table if not exists dictionary_schemas (
    project_id integer not null references projects (id) on delete cascade,
    entity_type text not null check (entity_type in ('event', 'profile')),
    name text not null,
    schema_json json not null,
    dropped boolean not null default false,
    dropped_properties text[] not null default '{}',
    updated_at timestamptz not null default now(),
    primary key (project_id, entity_type, name)
  )`,
  `create index if not exists dictionary_schemas_dropping on dictionary_schemas (project_id)
    where dropped or cardinality(dropped_properties) > 0`,
]);

import { sqlMigration } from '../postgres-migration';

/**
 * Boards (libs/boards): saved reports side by side with a shared date range and filter. Tiles and the
 * date range are JSON the service checks on every write; a tile names its report by id without a
 * foreign key, so deleting a report leaves the board readable (the tile shows "report deleted").
 * `share_nonce` is part of what a share link signs: null when not shared, rotated to revoke every
 * earlier link at once.
 */
export const boards = sqlMigration(13, 'boards', [
  `create table if not exists boards (
    id serial primary key,
    project_id integer not null references projects (id) on delete cascade,
    name text not null,
    description text not null default '',
    tiles jsonb not null default '[]',
    date_range jsonb not null,
    where_filter text,
    created_by text not null,
    updated_by text not null,
    created_at timestamptz not null default now(),
    updated_at timestamptz not null default now(),
    share_nonce text,
    shared_until timestamptz
  )`,
  'create index if not exists boards_project on boards (project_id, id)',
]);

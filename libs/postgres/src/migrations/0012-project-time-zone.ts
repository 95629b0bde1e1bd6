import { sqlMigration } from '../postgres-migration';

/**
 * A project's time zone (docs/queries.md, "Time zone"): the IANA name its reports' days are cut in.
 * Every project so far reported in UTC, so that is the default; which names are allowed is the
 * management API's rule (Node and ClickHouse must both know the name), not a check here.
 */
export const projectTimeZone = sqlMigration(12, 'project_time_zone', [
  `alter table projects add column if not exists timezone text not null default 'UTC'`,
]);

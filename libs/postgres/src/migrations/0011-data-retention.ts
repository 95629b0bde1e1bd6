import { sqlMigration } from '../postgres-migration';

/**
 * A project's event retention in days (docs/retention.md): null keeps events for ever, as every
 * project did before this migration. The bound matches the API's (1 to 36,500 days).
 */
export const dataRetention = sqlMigration(11, 'data_retention', [
  `alter table projects add column if not exists data_retention_days integer
    check (data_retention_days between 1 and 36500)`,
]);

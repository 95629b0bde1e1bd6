import { sqlMigration } from '../postgres-migration';

/**
 * Saved retention reports (libs/reports), so retention can be a board's tile: one more kind in
 * saved_reports. The column's check is the one migration 4 named implicitly (`<table>_<column>_check`).
 */
export const savedRetentionReports = sqlMigration(16, 'saved_retention_reports', [
  'alter table saved_reports drop constraint if exists saved_reports_kind_check',
  `alter table saved_reports add constraint saved_reports_kind_check
    check (kind in ('bookmark', 'funnel', 'cohort', 'retention'))`,
]);

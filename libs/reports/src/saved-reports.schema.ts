import { projects } from '@analytics/projects';
import { boolean, integer, jsonb, pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core';

export const REPORT_KINDS = ['bookmark', 'funnel', 'cohort', 'retention'] as const;
export type ReportKind = (typeof REPORT_KINDS)[number];

/** Postgres migration 0004 (the retention kind: 0015). */
export const savedReports = pgTable('saved_reports', {
  id: serial('id').primaryKey(),
  projectId: integer('project_id')
    .notNull()
    .references(() => projects.id, { onDelete: 'cascade' }),
  kind: text('kind').$type<ReportKind>().notNull(),
  name: text('name').notNull(),
  description: text('description').notNull().default(''),
  isVisible: boolean('is_visible').notNull().default(true),
  definition: jsonb('definition').$type<unknown>().notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

export type SavedReportRow = typeof savedReports.$inferSelect;
export type NewSavedReportRow = typeof savedReports.$inferInsert;

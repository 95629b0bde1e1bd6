import { integer, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import { projects } from './projects.schema';

/** The group keys a project defined (Postgres migration 0003, beside the profile tables). */
export const groupKeys = pgTable(
  'group_keys',
  {
    projectId: integer('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.projectId, table.name] })],
);

export type GroupKey = typeof groupKeys.$inferSelect;

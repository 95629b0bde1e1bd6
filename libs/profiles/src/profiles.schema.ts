import { projects } from '@analytics/projects';
import { integer, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';

/** Postgres migration 0003. The profile tables themselves are reached through SQL in ProfilesRepository. */
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

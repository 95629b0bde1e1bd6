import { projects } from '@analytics/projects';
import { integer, pgTable, primaryKey, serial, text, timestamp } from 'drizzle-orm/pg-core';

/** Postgres migration 0005. Reads that join the creating user are SQL in AnnotationsRepository. */
export const annotationTags = pgTable('annotation_tags', {
  id: serial('id').primaryKey(),
  projectId: integer('project_id')
    .notNull()
    .references(() => projects.id, { onDelete: 'cascade' }),
  name: text('name').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

export const annotations = pgTable('annotations', {
  id: serial('id').primaryKey(),
  projectId: integer('project_id')
    .notNull()
    .references(() => projects.id, { onDelete: 'cascade' }),
  date: timestamp('date', { withTimezone: true }).notNull(),
  description: text('description').notNull(),
  userId: integer('user_id'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

export const annotationTagLinks = pgTable(
  'annotation_tag_links',
  {
    annotationId: integer('annotation_id')
      .notNull()
      .references(() => annotations.id, { onDelete: 'cascade' }),
    tagId: integer('tag_id')
      .notNull()
      .references(() => annotationTags.id, { onDelete: 'cascade' }),
  },
  (table) => [primaryKey({ columns: [table.annotationId, table.tagId] })],
);

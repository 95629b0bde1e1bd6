import { projects } from '@analytics/projects';
import { boolean, integer, json, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import { EntityType, SchemaDocument } from './schema-document';

/** Postgres migration 0005: one row per described event or profile. */
export const dictionarySchemas = pgTable(
  'dictionary_schemas',
  {
    projectId: integer('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    entityType: text('entity_type').$type<EntityType>().notNull(),
    name: text('name').notNull(),
    schemaJson: json('schema_json').$type<SchemaDocument>().notNull(),
    /** Derived from `schemaJson` when written: what the gateways read. */
    dropped: boolean('dropped').notNull().default(false),
    droppedProperties: text('dropped_properties').array().notNull().default([]),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.projectId, table.entityType, table.name] })],
);

export type StoredSchema = Pick<typeof dictionarySchemas.$inferSelect, 'entityType' | 'name' | 'schemaJson'>;

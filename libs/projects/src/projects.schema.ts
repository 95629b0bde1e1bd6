import { IdentityMode } from '@analytics/events';
import { integer, pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core';

export const organizations = pgTable('organizations', {
  id: serial('id').primaryKey(),
  name: text('name').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

export const projects = pgTable('projects', {
  id: serial('id').primaryKey(),
  organizationId: integer('organization_id')
    .notNull()
    .references(() => organizations.id, { onDelete: 'cascade' }),
  name: text('name').notNull(),
  token: text('token').notNull().unique(),
  secretHash: text('secret_hash').notNull(),
  secretLookup: text('secret_lookup').notNull(),
  region: text('region').$type<DataRegion>().notNull().default('US'),
  identityMerge: text('identity_merge').$type<IdentityMode>().notNull().default('simplified'),
  /** Days of events kept (docs/retention.md); null keeps them for ever. */
  dataRetentionDays: integer('data_retention_days'),
  /** The IANA time zone its reports' days are cut in (docs/queries.md, "Time zone"). */
  timezone: text('timezone').notNull().default('UTC'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

export const DATA_REGIONS = ['US', 'EU', 'IN'] as const;
export type DataRegion = (typeof DATA_REGIONS)[number];

export type Organization = typeof organizations.$inferSelect;
export type Project = typeof projects.$inferSelect;
export type NewProject = typeof projects.$inferInsert;

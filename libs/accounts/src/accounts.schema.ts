import { organizations, projects } from '@analytics/projects';
import { integer, pgTable, primaryKey, serial, text, timestamp } from 'drizzle-orm/pg-core';

export type RoleName = 'owner' | 'admin' | 'analyst' | 'consumer';

export const users = pgTable('users', {
  id: serial('id').primaryKey(),
  organizationId: integer('organization_id')
    .notNull()
    .references(() => organizations.id, { onDelete: 'cascade' }),
  firstName: text('first_name').notNull().default(''),
  lastName: text('last_name').notNull().default(''),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

export const serviceAccounts = pgTable('service_accounts', {
  id: serial('id').primaryKey(),
  organizationId: integer('organization_id')
    .notNull()
    .references(() => organizations.id, { onDelete: 'cascade' }),
  userId: integer('user_id')
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' }),
  username: text('username').notNull().unique(),
  secretHash: text('secret_hash').notNull(),
  role: text('role').$type<RoleName>().notNull(),
  creator: integer('creator').references(() => users.id, { onDelete: 'set null' }),
  expires: timestamp('expires', { withTimezone: true }),
  lastUsed: timestamp('last_used', { withTimezone: true }),
  created: timestamp('created', { withTimezone: true }).notNull().defaultNow(),
});

export const serviceAccountProjects = pgTable(
  'service_account_projects',
  {
    serviceAccountId: integer('service_account_id')
      .notNull()
      .references(() => serviceAccounts.id, { onDelete: 'cascade' }),
    projectId: integer('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    role: text('role').$type<RoleName>().notNull(),
  },
  (table) => [primaryKey({ columns: [table.serviceAccountId, table.projectId] })],
);

export const oauthTokens = pgTable('oauth_tokens', {
  id: serial('id').primaryKey(),
  serviceAccountId: integer('service_account_id')
    .notNull()
    .references(() => serviceAccounts.id, { onDelete: 'cascade' }),
  tokenHash: text('token_hash').notNull(),
  tokenLookup: text('token_lookup').notNull(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

export type User = typeof users.$inferSelect;
export type ServiceAccount = typeof serviceAccounts.$inferSelect;
export type ProjectMembership = typeof serviceAccountProjects.$inferSelect;
export type OAuthToken = typeof oauthTokens.$inferSelect;

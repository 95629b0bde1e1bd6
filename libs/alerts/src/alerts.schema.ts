import { projects } from '@analytics/projects';
import { bigserial, boolean, doublePrecision, integer, pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core';
import { AlertCadence, AlertRule } from './alert-rule';

export type AlertState = 'pending' | 'ok' | 'fired' | 'error';

/** Postgres migration 0014. */
export const alerts = pgTable('alerts', {
  id: serial('id').primaryKey(),
  projectId: integer('project_id')
    .notNull()
    .references(() => projects.id, { onDelete: 'cascade' }),
  bookmarkId: integer('bookmark_id').notNull(),
  name: text('name').notNull(),
  rule: text('rule').$type<AlertRule>().notNull(),
  threshold: doublePrecision('threshold').notNull(),
  series: text('series'),
  cadence: text('cadence').$type<AlertCadence>().notNull(),
  webhookUrl: text('webhook_url').notNull(),
  signingSecret: text('signing_secret').notNull(),
  enabled: boolean('enabled').notNull().default(true),
  lastPeriod: text('last_period'),
  lastState: text('last_state').$type<AlertState>().notNull().default('pending'),
  lastCheckedAt: timestamp('last_checked_at', { withTimezone: true }),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

export const alertDeliveries = pgTable('alert_deliveries', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  alertId: integer('alert_id').notNull(),
  projectId: integer('project_id').notNull(),
  at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
  period: text('period'),
  value: doublePrecision('value'),
  previousValue: doublePrecision('previous_value'),
  fired: boolean('fired').notNull(),
  test: boolean('test').notNull().default(false),
  attempt: integer('attempt').notNull().default(0),
  httpStatus: integer('http_status'),
  error: text('error'),
});

export type AlertRow = typeof alerts.$inferSelect;
export type NewAlertRow = typeof alerts.$inferInsert;
export type AlertDeliveryRow = typeof alertDeliveries.$inferSelect;
export type NewAlertDeliveryRow = typeof alertDeliveries.$inferInsert;

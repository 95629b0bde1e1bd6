import { projects } from '@analytics/projects';
import { integer, jsonb, pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core';

/** The kinds of saved report a tile can show (flows have no saved form yet). */
export const TILE_KINDS = ['insights', 'funnel', 'retention'] as const;
export type TileKind = (typeof TILE_KINDS)[number];

/** Where a tile sits on the board's 12-column grid. */
export interface TileLayout {
  x: number;
  y: number;
  w: number;
  h: number;
}

export interface BoardTile {
  kind: TileKind;
  /** The saved report: an insights bookmark's, a funnel's or a retention report's id, in the board's project. */
  report_id: number;
  layout: TileLayout;
}

/** The last N days (today included), or a fixed span of days. */
export type BoardDateRange = { last_days: number } | { from_date: string; to_date: string };

/** Postgres migration 0013. */
export const boards = pgTable('boards', {
  id: serial('id').primaryKey(),
  projectId: integer('project_id')
    .notNull()
    .references(() => projects.id, { onDelete: 'cascade' }),
  name: text('name').notNull(),
  description: text('description').notNull().default(''),
  tiles: jsonb('tiles').$type<BoardTile[]>().notNull(),
  dateRange: jsonb('date_range').$type<BoardDateRange>().notNull(),
  whereFilter: text('where_filter'),
  createdBy: text('created_by').notNull(),
  updatedBy: text('updated_by').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  shareNonce: text('share_nonce'),
  sharedUntil: timestamp('shared_until', { withTimezone: true }),
});

export type BoardRow = typeof boards.$inferSelect;
export type NewBoardRow = typeof boards.$inferInsert;

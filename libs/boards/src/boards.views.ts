import { BoardRow } from './boards.schema';
import { ShownTile } from './boards.service';

/** Boards as the app API shows them. */

export function boardSummaryJson(board: BoardRow) {
  return {
    id: board.id,
    name: board.name,
    description: board.description,
    tile_count: board.tiles.length,
    shared_until: board.shareNonce && board.sharedUntil ? board.sharedUntil.toISOString() : null,
    created_by: board.createdBy,
    modified_by: board.updatedBy,
    created: board.createdAt.toISOString(),
    modified: board.updatedAt.toISOString(),
  };
}

export function boardJson(board: BoardRow, tiles: ShownTile[]) {
  const { tile_count: _count, ...summary } = boardSummaryJson(board);
  return { ...summary, date_range: board.dateRange, where: board.whereFilter ?? '', tiles };
}

const TILE = {
  type: 'object',
  properties: {
    kind: { type: 'string', enum: ['insights', 'funnel', 'retention'] },
    report_id: { type: 'integer' },
    layout: {
      type: 'object',
      properties: { x: { type: 'integer' }, y: { type: 'integer' }, w: { type: 'integer' }, h: { type: 'integer' } },
    },
    report: {
      type: 'object',
      description: '{name} of the saved report, or {deleted: true} when it was deleted after the board was saved',
    },
  },
};

const SUMMARY = {
  id: { type: 'integer' },
  name: { type: 'string' },
  description: { type: 'string' },
  shared_until: { type: 'string', format: 'date-time', nullable: true },
  created_by: { type: 'string' },
  modified_by: { type: 'string' },
  created: { type: 'string', format: 'date-time' },
  modified: { type: 'string', format: 'date-time' },
};

export const BOARD_SCHEMA = {
  type: 'object',
  properties: {
    ...SUMMARY,
    date_range: { type: 'object', description: '{last_days} or {from_date, to_date}' },
    where: { type: 'string' },
    tiles: { type: 'array', items: TILE },
  },
};

/** The app API's envelope around a result schema, for OpenAPI. */
export const okSchema = (results: object) => ({
  schema: {
    type: 'object',
    properties: { status: { type: 'string', enum: ['ok'] }, results },
  },
});

export const BOARD_LIST_SCHEMA = {
  type: 'array',
  items: { type: 'object', properties: { ...SUMMARY, tile_count: { type: 'integer' } } },
};

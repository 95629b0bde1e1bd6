import { checkOptionalExpression, ReportsError } from '@analytics/report-definitions';
import { SavedReportsService } from '@analytics/reports';
import { ProjectScope } from '@analytics/tenancy';
import { Injectable } from '@nestjs/common';
import { BoardsError, BoardsErrorCode, invalidBoard } from './boards-error';
import { GRID_COLUMNS } from './boards.dto';
import { BoardChanges, BoardsRepository } from './boards.repository';
import { BoardDateRange, BoardRow, BoardTile, TILE_KINDS, TileKind } from './boards.schema';

/** A board's fields as the API takes them (shapes checked by the DTOs; rules here). */
export interface BoardFields {
  name?: string;
  description?: string;
  tiles?: BoardTile[];
  date_range?: Partial<{ last_days: number; from_date: string; to_date: string }>;
  where?: string;
}

/** A tile with its report's name, or `deleted` when the report is gone since the board was saved. */
export type ShownTile = BoardTile & { report: { name: string } | { deleted: true } };

export const DEFAULT_DATE_RANGE: BoardDateRange = { last_days: 30 };
const SAVED_KIND = { insights: 'bookmark', funnel: 'funnel', retention: 'retention' } as const satisfies Record<
  TileKind,
  string
>;

function checkDateRange(range: NonNullable<BoardFields['date_range']>): BoardDateRange {
  const { last_days: lastDays, from_date: from, to_date: to } = range;
  if (lastDays !== undefined) {
    if (from !== undefined || to !== undefined)
      throw invalidBoard('date_range: give either last_days or from_date and to_date, not both');
    return { last_days: lastDays };
  }
  if (from === undefined || to === undefined)
    throw invalidBoard('date_range: give last_days, or from_date and to_date');
  for (const [field, day] of [
    ['from_date', from],
    ['to_date', to],
  ]) {
    const ms = Date.parse(`${day}T00:00:00Z`);
    if (Number.isNaN(ms) || new Date(ms).toISOString().slice(0, 10) !== day)
      throw invalidBoard(`date_range.${field} is not a calendar day: "${day}"`);
  }
  if (from > to) throw invalidBoard(`date_range: from_date ${from} is after to_date ${to}`);
  return { from_date: from, to_date: to };
}

function checkLayout(tiles: BoardTile[]): void {
  tiles.forEach((tile, i) => {
    if (tile.layout.x + tile.layout.w > GRID_COLUMNS)
      throw invalidBoard(`tiles[${i}].layout: x + w must be at most ${GRID_COLUMNS} (the grid's columns)`);
  });
}

const actorName = (actor: string) => actor.slice(0, 255);

/** Boards of saved reports: every tile must name a saved report of the board's project when written. */
@Injectable()
export class BoardsService {
  constructor(
    private readonly repository: BoardsRepository,
    private readonly reports: SavedReportsService,
  ) {}

  list(scope: ProjectScope): Promise<BoardRow[]> {
    return this.repository.list(scope);
  }

  async get(scope: ProjectScope, id: number): Promise<BoardRow> {
    const row = await this.repository.find(scope, id);
    if (!row) throw this.notFound(id);
    return row;
  }

  async create(scope: ProjectScope, actor: string, fields: BoardFields & { name: string }): Promise<BoardRow> {
    const checked = await this.check(scope, fields);
    return this.repository.create(scope, {
      name: fields.name,
      description: fields.description ?? '',
      tiles: checked.tiles ?? [],
      dateRange: checked.dateRange ?? DEFAULT_DATE_RANGE,
      whereFilter: checked.whereFilter ?? null,
      createdBy: actorName(actor),
      updatedBy: actorName(actor),
    });
  }

  async update(scope: ProjectScope, id: number, actor: string, fields: BoardFields): Promise<BoardRow> {
    const checked = await this.check(scope, fields);
    return this.change(scope, id, {
      ...(fields.name !== undefined && { name: fields.name }),
      ...(fields.description !== undefined && { description: fields.description }),
      ...checked,
      updatedBy: actorName(actor),
    });
  }

  async delete(scope: ProjectScope, id: number): Promise<void> {
    if (!(await this.repository.delete(scope, id))) throw this.notFound(id);
  }

  async change(scope: ProjectScope, id: number, changes: BoardChanges): Promise<BoardRow> {
    const row = await this.repository.update(scope, id, changes);
    if (!row) throw this.notFound(id);
    return row;
  }

  /** Each tile with its report's name; a report deleted since the board was saved shows as such, not as an error. */
  async tilesOf(scope: ProjectScope, board: BoardRow): Promise<ShownTile[]> {
    const names = await this.reportNames(scope);
    return board.tiles.map((tile) => {
      const name = names[tile.kind].get(tile.report_id);
      return { ...tile, report: name === undefined ? { deleted: true as const } : { name } };
    });
  }

  private async reportNames(scope: ProjectScope): Promise<Record<TileKind, Map<number, string>>> {
    const [insights, funnel, retention] = await Promise.all(
      TILE_KINDS.map(async (kind) => {
        const reports = await this.reports.list(scope, SAVED_KIND[kind]);
        return new Map(reports.map((report) => [report.id, report.name]));
      }),
    );
    return { insights, funnel, retention };
  }

  private async check(scope: ProjectScope, fields: BoardFields): Promise<BoardChanges> {
    const changes: BoardChanges = {};
    if (fields.tiles !== undefined) {
      checkLayout(fields.tiles);
      const names = await this.reportNames(scope);
      fields.tiles.forEach((tile, i) => {
        if (!names[tile.kind].has(tile.report_id))
          throw invalidBoard(`tiles[${i}]: no saved ${tile.kind} report ${tile.report_id} in this project`);
      });
      changes.tiles = fields.tiles.map(({ kind, report_id, layout: { x, y, w, h } }) => ({
        kind,
        report_id,
        layout: { x, y, w, h },
      }));
    }
    if (fields.date_range !== undefined) changes.dateRange = checkDateRange(fields.date_range);
    if (fields.where !== undefined) {
      try {
        changes.whereFilter = checkOptionalExpression('where', fields.where, 'events') ?? null;
      } catch (error) {
        if (error instanceof ReportsError) throw invalidBoard(error.message);
        throw error;
      }
    }
    return changes;
  }

  private notFound(id: number): BoardsError {
    return new BoardsError(BoardsErrorCode.NotFound, `board ${id} not found in this project`);
  }
}

import { AppConfig } from '@analytics/config';
import { asError } from '@analytics/errors';
import { ProjectsService } from '@analytics/projects';
import { RateLimiterFactory } from '@analytics/rate-limits';
import { ProjectScope, projectScope } from '@analytics/tenancy';
import { Injectable } from '@nestjs/common';
import { BoardShareLinks } from './board-share-links';
import { BoardTileResults } from './board-tile-results';
import { BoardsRepository } from './boards.repository';
import { BoardRow } from './boards.schema';
import { BoardsService, ShownTile } from './boards.service';
import { boardJson } from './boards.views';

/** A tile of a shared board: its report computed now, or why it could not be. */
export type SharedTile = ShownTile & ({ result: unknown } | { error: string });

/**
 * The public view of a shared board: the board and each tile's result, computed by the query API's own
 * services and only for the board's tiles (the token names a board, never a query). Every tile spends
 * one query of the project's public query budget (QUERY_LIMIT_*), as a script would: an anonymous
 * viewer is not the console. Tiles run one after the other, so a board never takes more than one of
 * the project's concurrent query slots.
 */
@Injectable()
export class SharedBoardsService {
  private readonly quota;

  constructor(
    private readonly links: BoardShareLinks,
    private readonly repository: BoardsRepository,
    private readonly boards: BoardsService,
    private readonly projects: ProjectsService,
    private readonly tiles: BoardTileResults,
    limits: RateLimiterFactory,
    config: AppConfig,
  ) {
    this.quota = limits.readingQuota('query', config.query.limits, config.consoleLimits.query).for({});
  }

  async view(token: string, signal?: AbortSignal) {
    const board = await this.repository.findShared(this.links.boardIdOf(token));
    this.links.verify(token, board);
    const project = await this.projects.findById(board.projectId);
    if (!project) throw new Error(`board ${board.id} names project ${board.projectId}, which is gone`);
    // The link's signature establishes access to this board of this project (test/architecture lists this file).
    const scope = projectScope(project.id, project.dataRetentionDays, project.timezone);
    const tiles: SharedTile[] = [];
    for (const tile of await this.boards.tilesOf(scope, board)) tiles.push(await this.tile(scope, board, tile, signal));
    const { created_by: _by, modified_by: _mod, shared_until: _until, ...shown } = boardJson(board, tiles);
    return shown;
  }

  private async tile(scope: ProjectScope, board: BoardRow, tile: ShownTile, signal?: AbortSignal): Promise<SharedTile> {
    if ('deleted' in tile.report) return { ...tile, error: 'report deleted' };
    const slot = await this.quota.acquire(scope.projectId);
    if (!slot.allowed) return { ...tile, error: `rate limit exceeded: ${slot.reason}` };
    try {
      return { ...tile, result: await this.tiles.compute(scope, board, tile, signal) };
    } catch (error) {
      // One tile's failure (a report deleted meanwhile, a rule it breaks now) leaves the others shown.
      return { ...tile, error: asError(error).message };
    } finally {
      await slot.release();
    }
  }
}

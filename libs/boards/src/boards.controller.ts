import { CurrentAccess, ProjectAccess, ProjectAccessGuard, RequireRole } from '@analytics/auth';
import { AppApiController, IdPipe, ok } from '@analytics/http';
import { Body, Delete, Get, HttpCode, Param, Patch, Post, Req } from '@nestjs/common';
import { ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import type { Request } from 'express';
import { BoardShareLinks } from './board-share-links';
import { CreateBoardDto, ShareBoardDto, UpdateBoardDto } from './boards.dto';
import { BoardRow } from './boards.schema';
import { BoardsService } from './boards.service';
import { BOARD_LIST_SCHEMA, BOARD_SCHEMA, boardJson, boardSummaryJson, okSchema } from './boards.views';

const actorOf = ({ actor }: ProjectAccess) => (actor.kind === 'service-account' ? actor.username : 'project secret');
export const SHARED_BOARDS_PATH = '/api/shared/boards';
const DEFAULT_SHARE_DAYS = 7;

@AppApiController('api/app/projects/:projectId/boards', { tag: 'boards', access: ProjectAccessGuard })
export class BoardsController {
  constructor(
    private readonly boards: BoardsService,
    private readonly links: BoardShareLinks,
  ) {}

  private async shown(access: ProjectAccess, board: BoardRow) {
    return ok(boardJson(board, await this.boards.tilesOf(access.scope, board)));
  }

  @Get()
  @RequireRole('consumer')
  @ApiOkResponse(okSchema(BOARD_LIST_SCHEMA))
  async list(@CurrentAccess() access: ProjectAccess) {
    return ok((await this.boards.list(access.scope)).map(boardSummaryJson));
  }

  @Post()
  @HttpCode(201)
  @RequireRole('analyst')
  @ApiOperation({
    summary: 'Create a board of saved reports (tiles), with a date range and a where filter for every tile',
  })
  @ApiOkResponse(okSchema(BOARD_SCHEMA))
  async create(@CurrentAccess() access: ProjectAccess, @Body() body: CreateBoardDto) {
    return this.shown(access, await this.boards.create(access.scope, actorOf(access), body));
  }

  @Get(':boardId')
  @RequireRole('consumer')
  @ApiOkResponse(okSchema(BOARD_SCHEMA))
  async get(@CurrentAccess() access: ProjectAccess, @Param('boardId', IdPipe) id: number) {
    return this.shown(access, await this.boards.get(access.scope, id));
  }

  @Patch(':boardId')
  @RequireRole('analyst')
  @ApiOkResponse(okSchema(BOARD_SCHEMA))
  async update(
    @CurrentAccess() access: ProjectAccess,
    @Param('boardId', IdPipe) id: number,
    @Body() body: UpdateBoardDto,
  ) {
    return this.shown(access, await this.boards.update(access.scope, id, actorOf(access), body));
  }

  @Delete(':boardId')
  @RequireRole('analyst')
  @ApiOkResponse(okSchema({ type: 'object', properties: { id: { type: 'integer' } } }))
  async delete(@CurrentAccess() access: ProjectAccess, @Param('boardId', IdPipe) id: number) {
    await this.boards.delete(access.scope, id);
    return ok({ id });
  }

  @Post(':boardId/share')
  @HttpCode(201)
  @RequireRole('analyst')
  @ApiOperation({
    summary:
      'A read-only link to the board and its tiles’ results, for anyone holding it, until it expires or is revoked',
  })
  @ApiOkResponse(
    okSchema({
      type: 'object',
      properties: { url: { type: 'string' }, token: { type: 'string' }, expires_at: { type: 'string' } },
    }),
  )
  async share(
    @Req() req: Request,
    @CurrentAccess() access: ProjectAccess,
    @Param('boardId', IdPipe) id: number,
    @Body() body: ShareBoardDto,
  ) {
    const board = await this.boards.get(access.scope, id);
    // Sharing again keeps the nonce: earlier links stay valid until they expire or the share is revoked.
    const nonce = board.shareNonce ?? this.links.newNonce();
    const { token, expiresAt } = this.links.token(board, nonce, body.expires_in_days ?? DEFAULT_SHARE_DAYS);
    const until =
      board.sharedUntil && board.shareNonce && board.sharedUntil > expiresAt ? board.sharedUntil : expiresAt;
    await this.boards.change(access.scope, id, { shareNonce: nonce, sharedUntil: until });
    const url = `${req.protocol}://${req.get('host')}${SHARED_BOARDS_PATH}/${token}`;
    return ok({ url, token, expires_at: expiresAt.toISOString() });
  }

  @Delete(':boardId/share')
  @RequireRole('analyst')
  @ApiOperation({ summary: 'Revoke every share link of the board at once' })
  @ApiOkResponse(okSchema({ type: 'object', properties: { id: { type: 'integer' } } }))
  async revoke(@CurrentAccess() access: ProjectAccess, @Param('boardId', IdPipe) id: number) {
    // The next share draws a new nonce, so a link signed before stays dead even if the board is shared again.
    await this.boards.change(access.scope, id, { shareNonce: null, sharedUntil: null });
    return ok({ id });
  }
}

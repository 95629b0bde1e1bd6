import { ApiErrorFilter } from '@analytics/http';
import { Controller, Get, Param, Req, Res, UseFilters } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { ok } from '@analytics/http';
import { SHARED_BOARDS_PATH } from './boards.controller';
import { BOARD_SCHEMA, okSchema } from './boards.views';
import { SharedBoardsService } from './shared-boards.service';

/** A shared board, public: the signed token is the only credential, and it reads this one board. */
@ApiTags('boards')
@Controller(SHARED_BOARDS_PATH.slice(1))
@UseFilters(new ApiErrorFilter('app'))
export class SharedBoardsController {
  constructor(private readonly shared: SharedBoardsService) {}

  @Get(':token')
  @ApiOperation({
    summary: 'A shared board and each tile’s result, computed now (no account: the link is the credential)',
  })
  @ApiOkResponse(okSchema(BOARD_SCHEMA))
  async view(@Param('token') token: string, @Req() req: Request, @Res({ passthrough: true }) res: Response) {
    const abort = new AbortController();
    req.on('close', () => {
      if (!res.writableFinished) abort.abort();
    });
    res.setHeader('Cache-Control', 'no-store');
    return ok(await this.shared.view(token, abort.signal));
  }
}

import { CurrentAccess, ProjectAccess, ProjectAccessGuard, RequireRole } from '@analytics/auth';
import { AppApiController, IdPipe } from '@analytics/http';
import { Body, Delete, Get, HttpCode, Param, Patch, Post } from '@nestjs/common';
import { ApiOperation } from '@nestjs/swagger';
import { InsightsParams } from '@analytics/report-definitions';
import { CreateBookmarkDto, UpdateBookmarkDto } from './saved-reports.dto';
import { SavedReportsService } from './saved-reports.service';
import { bookmarkJson, ok } from './saved-reports.views';

@AppApiController('api/app/projects/:projectId/bookmarks', { tag: 'saved reports', access: ProjectAccessGuard })
export class BookmarksController {
  constructor(private readonly reports: SavedReportsService) {}

  @Get()
  @RequireRole('consumer')
  async list(@CurrentAccess() access: ProjectAccess) {
    return ok((await this.reports.list(access.scope, 'bookmark')).map(bookmarkJson));
  }

  @Post()
  @HttpCode(201)
  @RequireRole('analyst')
  @ApiOperation({ summary: 'Save an insights report; its id is the bookmark_id of GET /api/query/insights' })
  async create(@CurrentAccess() access: ProjectAccess, @Body() body: CreateBookmarkDto) {
    return ok(
      bookmarkJson(
        await this.reports.create(access.scope, 'bookmark', {
          name: body.name,
          definition: body.params as InsightsParams,
        }),
      ),
    );
  }

  @Get(':id')
  @RequireRole('consumer')
  async get(@CurrentAccess() access: ProjectAccess, @Param('id', IdPipe) id: number) {
    return ok(bookmarkJson(await this.reports.get(access.scope, 'bookmark', id)));
  }

  @Patch(':id')
  @RequireRole('analyst')
  async update(
    @CurrentAccess() access: ProjectAccess,
    @Param('id', IdPipe) id: number,
    @Body() body: UpdateBookmarkDto,
  ) {
    return ok(
      bookmarkJson(
        await this.reports.update(access.scope, 'bookmark', id, {
          name: body.name,
          definition: body.params as Partial<InsightsParams> | undefined,
        }),
      ),
    );
  }

  @Delete(':id')
  @RequireRole('analyst')
  async delete(@CurrentAccess() access: ProjectAccess, @Param('id', IdPipe) id: number) {
    await this.reports.delete(access.scope, 'bookmark', id);
    return ok({ id });
  }
}

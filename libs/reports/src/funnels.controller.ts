import { CurrentAccess, ProjectAccess, ProjectAccessGuard, RequireRole } from '@analytics/auth';
import { AppApiController, IdPipe } from '@analytics/http';
import { Body, Delete, Get, HttpCode, Param, Patch, Post } from '@nestjs/common';
import { ApiOperation } from '@nestjs/swagger';
import { CreateFunnelDto, UpdateFunnelDto } from './saved-reports.dto';
import { SavedReportsService } from './saved-reports.service';
import { funnelJson, ok } from './saved-reports.views';

@AppApiController('api/app/projects/:projectId/funnels', { tag: 'saved reports', access: ProjectAccessGuard })
export class SavedFunnelsController {
  constructor(private readonly reports: SavedReportsService) {}

  @Get()
  @RequireRole('consumer')
  async list(@CurrentAccess() access: ProjectAccess) {
    return ok((await this.reports.list(access.scope, 'funnel')).map(funnelJson));
  }

  @Post()
  @HttpCode(201)
  @RequireRole('analyst')
  @ApiOperation({ summary: 'Save a funnel; its funnel_id is what GET /api/query/funnels reads' })
  async create(@CurrentAccess() access: ProjectAccess, @Body() { name, ...definition }: CreateFunnelDto) {
    return ok(funnelJson(await this.reports.create(access.scope, 'funnel', { name, definition })));
  }

  @Get(':funnelId')
  @RequireRole('consumer')
  async get(@CurrentAccess() access: ProjectAccess, @Param('funnelId', IdPipe) id: number) {
    return ok(funnelJson(await this.reports.get(access.scope, 'funnel', id)));
  }

  @Patch(':funnelId')
  @RequireRole('analyst')
  async update(
    @CurrentAccess() access: ProjectAccess,
    @Param('funnelId', IdPipe) id: number,
    @Body() { name, ...definition }: UpdateFunnelDto,
  ) {
    const changed = Object.values(definition).some((value) => value !== undefined);
    return ok(
      funnelJson(
        await this.reports.update(access.scope, 'funnel', id, { name, definition: changed ? definition : undefined }),
      ),
    );
  }

  @Delete(':funnelId')
  @RequireRole('analyst')
  async delete(@CurrentAccess() access: ProjectAccess, @Param('funnelId', IdPipe) id: number) {
    await this.reports.delete(access.scope, 'funnel', id);
    return ok({ funnel_id: id });
  }
}

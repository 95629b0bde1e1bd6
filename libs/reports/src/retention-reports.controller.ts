import { CurrentAccess, ProjectAccess, ProjectAccessGuard, RequireRole } from '@analytics/auth';
import { AppApiController, IdPipe } from '@analytics/http';
import { Body, Delete, Get, HttpCode, Param, Patch, Post } from '@nestjs/common';
import { ApiOperation } from '@nestjs/swagger';
import { CreateRetentionReportDto, UpdateRetentionReportDto } from './saved-reports.dto';
import { SavedReportsService } from './saved-reports.service';
import { ok, retentionJson } from './saved-reports.views';

/** Saved retention reports: what a board's retention tile runs (the dates are the board's). */
@AppApiController('api/app/projects/:projectId/retention-reports', {
  tag: 'saved reports',
  access: ProjectAccessGuard,
})
export class RetentionReportsController {
  constructor(private readonly reports: SavedReportsService) {}

  @Get()
  @RequireRole('consumer')
  async list(@CurrentAccess() access: ProjectAccess) {
    return ok((await this.reports.list(access.scope, 'retention')).map(retentionJson));
  }

  @Post()
  @HttpCode(201)
  @RequireRole('analyst')
  @ApiOperation({ summary: 'Save a retention report (type, events, filters, unit, intervals; no dates)' })
  async create(@CurrentAccess() access: ProjectAccess, @Body() { name, ...definition }: CreateRetentionReportDto) {
    return ok(retentionJson(await this.reports.create(access.scope, 'retention', { name, definition })));
  }

  @Get(':id')
  @RequireRole('consumer')
  async get(@CurrentAccess() access: ProjectAccess, @Param('id', IdPipe) id: number) {
    return ok(retentionJson(await this.reports.get(access.scope, 'retention', id)));
  }

  @Patch(':id')
  @RequireRole('analyst')
  async update(
    @CurrentAccess() access: ProjectAccess,
    @Param('id', IdPipe) id: number,
    @Body() { name, ...definition }: UpdateRetentionReportDto,
  ) {
    const changed = Object.values(definition).some((value) => value !== undefined);
    const update = { name, definition: changed ? definition : undefined };
    return ok(retentionJson(await this.reports.update(access.scope, 'retention', id, update)));
  }

  @Delete(':id')
  @RequireRole('analyst')
  async delete(@CurrentAccess() access: ProjectAccess, @Param('id', IdPipe) id: number) {
    await this.reports.delete(access.scope, 'retention', id);
    return ok({ id });
  }
}

import { CurrentAccess, ProjectAccess, ProjectAccessGuard, RequireRole } from '@analytics/auth';
import { AppApiController, IdPipe } from '@analytics/http';
import { Body, Delete, Get, HttpCode, Param, Patch, Post } from '@nestjs/common';
import { ApiOperation } from '@nestjs/swagger';
import { CohortDefinition } from '@analytics/report-definitions';
import { CreateCohortDto, UpdateCohortDto } from './saved-reports.dto';
import { SavedReportsService } from './saved-reports.service';
import { cohortJson, ok } from './saved-reports.views';

@AppApiController('api/app/projects/:projectId/cohorts', { tag: 'saved reports', access: ProjectAccessGuard })
export class CohortsController {
  constructor(private readonly reports: SavedReportsService) {}

  @Get()
  @RequireRole('consumer')
  async list(@CurrentAccess() access: ProjectAccess) {
    return ok((await this.reports.list(access.scope, 'cohort')).map(cohortJson));
  }

  @Post()
  @HttpCode(201)
  @RequireRole('analyst')
  @ApiOperation({ summary: 'Save a cohort: a profile expression or a behaviour over events' })
  async create(@CurrentAccess() access: ProjectAccess, @Body() body: CreateCohortDto) {
    const report = {
      name: body.name,
      description: body.description,
      isVisible: body.is_visible,
      definition: body.definition as CohortDefinition,
    };
    return ok(cohortJson(await this.reports.create(access.scope, 'cohort', report)));
  }

  @Get(':id')
  @RequireRole('consumer')
  async get(@CurrentAccess() access: ProjectAccess, @Param('id', IdPipe) id: number) {
    return ok(cohortJson(await this.reports.get(access.scope, 'cohort', id)));
  }

  @Patch(':id')
  @RequireRole('analyst')
  async update(@CurrentAccess() access: ProjectAccess, @Param('id', IdPipe) id: number, @Body() body: UpdateCohortDto) {
    const update = {
      name: body.name,
      description: body.description,
      isVisible: body.is_visible,
      definition: body.definition as CohortDefinition | undefined,
    };
    return ok(cohortJson(await this.reports.update(access.scope, 'cohort', id, update)));
  }

  @Delete(':id')
  @RequireRole('analyst')
  async delete(@CurrentAccess() access: ProjectAccess, @Param('id', IdPipe) id: number) {
    await this.reports.delete(access.scope, 'cohort', id);
    return ok({ id });
  }
}

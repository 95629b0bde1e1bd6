import { CurrentAccess, ProjectAccess, ProjectAccessGuard, RequireRole } from '@analytics/auth';
import { QueryFamilyController } from '@analytics/http';
import { Body, Get, HttpCode, Post, Query } from '@nestjs/common';
import { ApiOperation } from '@nestjs/swagger';
import { pipelineNameField } from './pipeline-request';
import { PipelinesService } from './pipelines.service';

type Fields = Record<string, unknown>;

/** Data pipelines, `/api/2.0/nessie/pipeline/*`: form-encoded (or JSON) bodies, Basic auth like the raw export. */
@QueryFamilyController('api/2.0/nessie/pipeline', { tag: 'pipelines', access: ProjectAccessGuard })
export class PipelinesController {
  constructor(private readonly pipelines: PipelinesService) {}

  @Post('create')
  @HttpCode(200)
  @RequireRole('admin')
  @ApiOperation({ summary: 'Create a pipeline: scheduled exports of events or people into a bucket or warehouse' })
  async create(@Body() body: Fields | undefined, @CurrentAccess() access: ProjectAccess) {
    return { pipeline_names: await this.pipelines.create(access.scope, body ?? {}) };
  }

  @Get('jobs')
  @RequireRole('consumer')
  @ApiOperation({ summary: "List the project's pipelines" })
  async jobs(@CurrentAccess() access: ProjectAccess) {
    return { [access.project.id]: await this.pipelines.list(access.scope) };
  }

  @Post('pause')
  @HttpCode(200)
  @RequireRole('admin')
  @ApiOperation({ summary: 'Pause a pipeline: no new window starts until it is resumed' })
  async pause(@Body() body: Fields | undefined, @CurrentAccess() access: ProjectAccess) {
    await this.pipelines.pause(access.scope, pipelineNameField(body ?? {}));
    return { status: 'ok' };
  }

  @Post('resume')
  @HttpCode(200)
  @RequireRole('admin')
  @ApiOperation({ summary: 'Resume a paused pipeline where it stopped' })
  async resume(@Body() body: Fields | undefined, @CurrentAccess() access: ProjectAccess) {
    await this.pipelines.resume(access.scope, pipelineNameField(body ?? {}));
    return { status: 'ok' };
  }

  @Post('cancel')
  @HttpCode(200)
  @RequireRole('admin')
  @ApiOperation({ summary: 'Cancel a pipeline for good (exported objects stay)' })
  async cancel(@Body() body: Fields | undefined, @CurrentAccess() access: ProjectAccess) {
    await this.pipelines.cancel(access.scope, pipelineNameField(body ?? {}));
    return { status: 'ok' };
  }

  @Get('status')
  @RequireRole('consumer')
  @ApiOperation({ summary: 'State, last run, last error and next run of a pipeline' })
  async status(@Query() query: Fields, @CurrentAccess() access: ProjectAccess) {
    return this.pipelines.status(access.scope, pipelineNameField(query));
  }

  @Get('timeline')
  @RequireRole('consumer')
  @ApiOperation({ summary: 'Per day: when it was written (each re-sync too) and its status' })
  async timeline(@Query() query: Fields, @CurrentAccess() access: ProjectAccess) {
    return {
      name: pipelineNameField(query),
      days: await this.pipelines.timeline(access.scope, pipelineNameField(query)),
    };
  }
}

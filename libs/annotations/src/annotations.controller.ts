import { CurrentAccess, ProjectAccess, ProjectAccessGuard, RequireRole } from '@analytics/auth';
import { AppApiController, IdPipe } from '@analytics/http';
import { Body, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiOperation } from '@nestjs/swagger';
import { CreateAnnotationDto, CreateAnnotationTagDto, UpdateAnnotationDto } from './annotations.dto';
import { AnnotationsService } from './annotations.service';
import { annotationJson, ok, tagJson } from './annotations.views';

const creatingUser = (access: ProjectAccess) =>
  access.actor.kind === 'service-account' ? access.actor.userId : undefined;

/** Mounted before {@link AnnotationsController}, so `/annotations/tags` is never read as an annotation id. */
@AppApiController('api/app/projects/:projectId/annotations/tags', { tag: 'annotations', access: ProjectAccessGuard })
export class AnnotationTagsController {
  constructor(private readonly annotations: AnnotationsService) {}

  @Get()
  @RequireRole('consumer')
  @ApiOperation({ summary: 'List the tags: a bare array of `{id, name, project_id, has_annotations}`' })
  async list(@CurrentAccess() access: ProjectAccess) {
    return (await this.annotations.listTags(access.scope)).map(tagJson);
  }

  @Post()
  @HttpCode(200)
  @RequireRole('analyst')
  @ApiOperation({ summary: 'Create a tag (an existing name returns that tag): the bare tag object' })
  async create(@CurrentAccess() access: ProjectAccess, @Body() body: CreateAnnotationTagDto) {
    return tagJson(await this.annotations.createTag(access.scope, body.name));
  }
}

@AppApiController('api/app/projects/:projectId/annotations', { tag: 'annotations', access: ProjectAccessGuard })
export class AnnotationsController {
  constructor(private readonly annotations: AnnotationsService) {}

  @Get()
  @RequireRole('consumer')
  @ApiOperation({
    summary:
      'List annotations in date order; `fromDate`/`toDate` as `YYYY-MM-DD HH:mm:ss` or `YYYY-MM-DD` (UTC, inclusive)',
  })
  async list(
    @CurrentAccess() access: ProjectAccess,
    @Query('fromDate') fromDate?: string,
    @Query('toDate') toDate?: string,
  ) {
    return ok((await this.annotations.list(access.scope, fromDate, toDate)).map(annotationJson));
  }

  @Post()
  @HttpCode(201)
  @RequireRole('analyst')
  @ApiOperation({ summary: 'Create an annotation: 201 `{"status":"ok","results":annotation}`' })
  async create(@CurrentAccess() access: ProjectAccess, @Body() body: CreateAnnotationDto) {
    const annotation = await this.annotations.create({
      scope: access.scope,
      date: body.date,
      description: body.description,
      tagIds: body.tags,
      userId: creatingUser(access),
    });
    return ok(annotationJson(annotation));
  }

  @Get(':annotationId')
  @RequireRole('consumer')
  async get(@CurrentAccess() access: ProjectAccess, @Param('annotationId', IdPipe) annotationId: number) {
    return ok(annotationJson(await this.annotations.get(access.scope, annotationId)));
  }

  @Patch(':annotationId')
  @RequireRole('analyst')
  @ApiOperation({ summary: 'Change `description` and/or `tags` (replacing them); `date` is not patchable (400)' })
  async update(
    @CurrentAccess() access: ProjectAccess,
    @Param('annotationId', IdPipe) annotationId: number,
    @Body() body: UpdateAnnotationDto,
  ) {
    const annotation = await this.annotations.update({
      scope: access.scope,
      annotationId,
      description: body.description,
      tagIds: body.tags,
    });
    return ok(annotationJson(annotation));
  }

  @Delete(':annotationId')
  @RequireRole('analyst')
  @ApiOperation({ summary: 'Delete an annotation for good: `{"status":"ok","results":{"id"}}`' })
  async delete(@CurrentAccess() access: ProjectAccess, @Param('annotationId', IdPipe) annotationId: number) {
    await this.annotations.delete(access.scope, annotationId);
    return ok({ id: annotationId });
  }
}

import { CurrentAccess, ProjectAccess, ProjectAccessGuard, RequireRole } from '@analytics/auth';
import { SchemasService } from '@analytics/dictionary';
import { AppApiController } from '@analytics/http';
import { Body, Delete, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiOperation } from '@nestjs/swagger';
import { UploadSchemasDto } from './schemas.dto';
import { deleted, ok, schemaEntryJson, seenJson } from './schemas.views';

const writer = (access: ProjectAccess) => ({ scope: access.scope, organizationId: access.project.organizationId });

/** The data dictionary, /api/app/projects/{projectId}/schemas. Writes: owner or admin, 5 a minute per organization by default. */
@AppApiController('api/app/projects/:projectId/schemas', { tag: 'data dictionary', access: ProjectAccessGuard })
export class SchemasController {
  constructor(private readonly schemas: SchemasService) {}

  @Get()
  @RequireRole('consumer')
  @ApiOperation({ summary: 'List every schema: `{"status":"ok","results":[{entityType, name, schemaJson}]}`' })
  async list(@CurrentAccess() access: ProjectAccess) {
    return ok((await this.schemas.list(access.scope)).map(schemaEntryJson));
  }

  @Post()
  @HttpCode(200)
  @RequireRole('admin')
  @ApiOperation({
    summary: 'Create or replace many (`entries`, `truncate`): `{"status":"ok","results":{"added","deleted"}}`',
  })
  async upload(@CurrentAccess() access: ProjectAccess, @Body() body: UploadSchemasDto) {
    return ok(
      await this.schemas.uploadSchemas({ ...writer(access), entries: body.entries, truncate: body.truncate ?? false }),
    );
  }

  @Delete()
  @RequireRole('admin')
  @ApiOperation({ summary: 'Delete the whole dictionary: `{"status":"ok","results":{"delete_count"}}`' })
  async deleteAll(@CurrentAccess() access: ProjectAccess) {
    return deleted(await this.schemas.deleteSchemas(writer(access)));
  }

  /** Before `:entityType`, which it would otherwise read as an entity type. */
  @Get('seen')
  @RequireRole('consumer')
  @ApiOperation({
    summary: 'Events received recently beside those described, with their properties, `hidden` and `dropped`',
  })
  async seen(@CurrentAccess() access: ProjectAccess) {
    return ok(seenJson(await this.schemas.listSeen(access.scope)));
  }

  @Get(':entityType')
  @RequireRole('consumer')
  async listType(@CurrentAccess() access: ProjectAccess, @Param('entityType') entityType: string) {
    return ok((await this.schemas.list(access.scope, entityType)).map(schemaEntryJson));
  }

  @Delete(':entityType')
  @RequireRole('admin')
  async deleteType(@CurrentAccess() access: ProjectAccess, @Param('entityType') entityType: string) {
    return deleted(await this.schemas.deleteSchemas({ ...writer(access), entityType }));
  }

  @Get(':entityType/:name')
  @RequireRole('consumer')
  @ApiOperation({ summary: 'One schema: `{"status":"ok","results":{entityType, name, schemaJson}}`, 404 if none' })
  async get(
    @CurrentAccess() access: ProjectAccess,
    @Param('entityType') entityType: string,
    @Param('name') name: string,
  ) {
    return ok(schemaEntryJson(await this.schemas.get(access.scope, entityType, name)));
  }

  @Post(':entityType/:name')
  @HttpCode(200)
  @RequireRole('admin')
  @ApiOperation({
    summary: 'Create or replace one (the body is the schema; metadata keys it omits are kept): `{"status":"ok"}`',
  })
  async uploadOne(
    @CurrentAccess() access: ProjectAccess,
    @Param('entityType') entityType: string,
    @Param('name') name: string,
    @Body() schema: unknown,
  ) {
    await this.schemas.uploadSchema({ ...writer(access), entityType, name, schema });
    return { status: 'ok' };
  }

  @Delete(':entityType/:name')
  @RequireRole('admin')
  async deleteOne(
    @CurrentAccess() access: ProjectAccess,
    @Param('entityType') entityType: string,
    @Param('name') name: string,
  ) {
    return deleted(await this.schemas.deleteSchemas({ ...writer(access), entityType, name }));
  }
}

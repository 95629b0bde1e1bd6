import { CurrentAccess, ProjectAccess, ProjectAccessGuard, RequireRole } from '@analytics/auth';
import { AppApiController, IdPipe, ok } from '@analytics/http';
import { Body, Delete, Get, HttpCode, Param, Patch, Post, Put, Query } from '@nestjs/common';
import { ApiOperation } from '@nestjs/swagger';
import { ImportKind } from './import-definition';
import { WarehouseImportsService } from './warehouse-imports.service';
import { importJson, runJson, sourceJson } from './warehouse-imports.views';

type Json = Record<string, unknown>;

/** `true`/`false` from a query string, as clients send `?delete_data=true`. */
const queryFlag = (value: string | undefined) =>
  value === undefined ? undefined : value === 'true' ? true : value === 'false' ? false : value;

/** Mounted before {@link WarehouseSourcesController}, so `/imports` is never read as a source id. */
@AppApiController('api/app/projects/:projectId/warehouse-sources/imports', {
  tag: 'warehouse imports',
  access: ProjectAccessGuard,
})
export class WarehouseImportsController {
  constructor(private readonly imports: WarehouseImportsService) {}

  private async create(access: ProjectAccess, kind: ImportKind, body: Json) {
    return ok({ id: String(await this.imports.createImport(access.scope, kind, body)) });
  }

  @Post('event-stream')
  @HttpCode(200)
  @RequireRole('admin')
  @ApiOperation({ summary: 'Create an event import: `{"status":"ok","results":{"id"}}`' })
  createEvents(@CurrentAccess() access: ProjectAccess, @Body() body: Json) {
    return this.create(access, 'event-stream', body);
  }

  @Post('people')
  @HttpCode(200)
  @RequireRole('admin')
  @ApiOperation({ summary: 'Create a user-profile import' })
  createPeople(@CurrentAccess() access: ProjectAccess, @Body() body: Json) {
    return this.create(access, 'people', body);
  }

  @Post('groups')
  @HttpCode(200)
  @RequireRole('admin')
  @ApiOperation({ summary: 'Create a group-profile import (`group_key`, `group_id_column_name`)' })
  createGroups(@CurrentAccess() access: ProjectAccess, @Body() body: Json) {
    return this.create(access, 'groups', body);
  }

  @Get()
  @RequireRole('consumer')
  async list(@CurrentAccess() access: ProjectAccess) {
    return ok((await this.imports.listImports(access.scope)).map(importJson));
  }

  @Get(':importId')
  @RequireRole('consumer')
  async get(@CurrentAccess() access: ProjectAccess, @Param('importId', IdPipe) id: number) {
    return ok(importJson(await this.imports.import(access.scope, id)));
  }

  @Patch(':importId')
  @RequireRole('admin')
  @ApiOperation({
    summary: '`paused` (required) and `run_every` (0, 3600000000000, 86400000000000 or 604800000000000 ns)',
  })
  async update(@CurrentAccess() access: ProjectAccess, @Param('importId', IdPipe) id: number, @Body() body: Json) {
    return ok(importJson(await this.imports.updateImport(access.scope, id, body ?? {})));
  }

  @Delete(':importId')
  @RequireRole('admin')
  @ApiOperation({ summary: 'Delete an import; `delete_data: true` also removes the events and profiles it brought' })
  async delete(
    @CurrentAccess() access: ProjectAccess,
    @Param('importId', IdPipe) id: number,
    @Body() body: Json,
    @Query('delete_data') flag?: string,
  ) {
    await this.imports.deleteImport(access.scope, id, body?.delete_data ?? queryFlag(flag));
    return { status: 'ok' };
  }

  @Get(':importId/history')
  @RequireRole('consumer')
  @ApiOperation({ summary: 'The last 30 runs, newest first' })
  async history(@CurrentAccess() access: ProjectAccess, @Param('importId', IdPipe) id: number) {
    return ok((await this.imports.history(access.scope, id)).map(runJson));
  }

  @Put(':importId/manual-sync')
  @RequireRole('admin')
  @ApiOperation({ summary: 'Run the import now (at most 5 per hour: 429 beyond)' })
  async manualSync(@CurrentAccess() access: ProjectAccess, @Param('importId', IdPipe) id: number) {
    await this.imports.manualSync(access.scope, id);
    return { status: 'ok' };
  }
}

@AppApiController('api/app/projects/:projectId/warehouse-sources', {
  tag: 'warehouse imports',
  access: ProjectAccessGuard,
})
export class WarehouseSourcesController {
  constructor(private readonly imports: WarehouseImportsService) {}

  @Post()
  @HttpCode(201)
  @RequireRole('admin')
  @ApiOperation({
    summary: 'Create a source `{name, type, connection}`; Postgres is connected to first (400 with the reason)',
  })
  async create(@CurrentAccess() access: ProjectAccess, @Body() body: Json) {
    return ok(sourceJson(await this.imports.createSource(access.scope, body)));
  }

  @Get()
  @RequireRole('consumer')
  async list(@CurrentAccess() access: ProjectAccess) {
    return ok((await this.imports.listSources(access.scope)).map(sourceJson));
  }

  @Get(':sourceId')
  @RequireRole('consumer')
  async get(@CurrentAccess() access: ProjectAccess, @Param('sourceId', IdPipe) id: number) {
    return ok(sourceJson(await this.imports.source(access.scope, id)));
  }

  @Delete(':sourceId')
  @RequireRole('admin')
  async delete(@CurrentAccess() access: ProjectAccess, @Param('sourceId', IdPipe) id: number) {
    await this.imports.deleteSource(access.scope, id);
    return { status: 'ok' };
  }
}

import { CurrentAccess, ProjectAccess, ProjectAccessGuard, RequireRole } from '@analytics/auth';
import { AppApiController, ok } from '@analytics/http';
import { Body, Delete, Get, HttpCode, Param, Patch, Post } from '@nestjs/common';
import { ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import { CreateLookupTableDto, UpdateLookupTableDto } from './lookup-tables.dto';
import { LookupTablesService } from './lookup-tables.service';
import { DELETED_RESPONSE, lookupTableJson, TABLE_LIST_RESPONSE, TABLE_RESPONSE } from './lookup-tables.views';

/**
 * Lookup tables' definitions on the app API: what the real product does in its Lexicon UI (create
 * a table, map it to an event or profile property, delete it). Rows are replaced on the ingestion
 * host, PUT /lookup-tables/{id}.
 */
@AppApiController('api/app/projects/:projectId/lookup-tables', { tag: 'lookup-tables', access: ProjectAccessGuard })
export class LookupTablesController {
  constructor(private readonly tables: LookupTablesService) {}

  @Get()
  @RequireRole('consumer')
  @ApiOperation({ summary: 'List the lookup tables with their mappings and columns' })
  @ApiOkResponse(TABLE_LIST_RESPONSE)
  async list(@CurrentAccess() access: ProjectAccess) {
    return ok((await this.tables.list(access.scope)).map(lookupTableJson));
  }

  @Post()
  @HttpCode(201)
  @RequireRole('admin')
  @ApiOperation({
    summary: 'Create an empty lookup table, `{name, mapped_to?: {source: "event"|"profile", property}}`',
  })
  @ApiOkResponse(TABLE_RESPONSE)
  async create(@CurrentAccess() access: ProjectAccess, @Body() body: CreateLookupTableDto) {
    return ok(lookupTableJson(await this.tables.create(access.scope, body.name, body.mapped_to)));
  }

  @Get(':tableId')
  @RequireRole('consumer')
  @ApiOkResponse(TABLE_RESPONSE)
  async get(@CurrentAccess() access: ProjectAccess, @Param('tableId') tableId: string) {
    return ok(lookupTableJson(await this.tables.get(access.scope, tableId)));
  }

  @Patch(':tableId')
  @RequireRole('admin')
  @ApiOperation({ summary: 'Rename a table and/or change its mapping (`mapped_to: null` removes it)' })
  @ApiOkResponse(TABLE_RESPONSE)
  async update(
    @CurrentAccess() access: ProjectAccess,
    @Param('tableId') tableId: string,
    @Body() body: UpdateLookupTableDto,
  ) {
    const table = await this.tables.update(access.scope, tableId, { name: body.name, mappedTo: body.mapped_to });
    return ok(lookupTableJson(table));
  }

  @Delete(':tableId')
  @RequireRole('admin')
  @ApiOperation({ summary: 'Delete a lookup table and its rows' })
  @ApiOkResponse(DELETED_RESPONSE)
  async delete(@CurrentAccess() access: ProjectAccess, @Param('tableId') tableId: string) {
    await this.tables.delete(access.scope, tableId);
    return ok({ id: tableId });
  }
}

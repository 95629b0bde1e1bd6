import { CurrentAccess, ProjectAccess, ProjectAccessGuard, RequireRole } from '@analytics/auth';
import { PROJECT_ID_PARAMETER } from '@analytics/http';
import { readRequestBody } from '@analytics/sdk-transport';
import { Controller, Get, Param, Put, Req, UseFilters, UseGuards } from '@nestjs/common';
import {
  ApiBasicAuth,
  ApiConsumes,
  ApiOkResponse,
  ApiOperation,
  ApiQuery,
  ApiResponse,
  ApiTags,
} from '@nestjs/swagger';
import type { Request } from 'express';
import { LookupTablesIngestFilter } from './lookup-tables-ingest.filter';
import { LookupTablesService } from './lookup-tables.service';
import { INGEST_ERROR_RESPONSE, INGEST_LIST_RESPONSE, INGEST_REPLACED_RESPONSE } from './lookup-tables.views';

/** The real API's limit on a table, measured uncompressed: 100 MB. */
export const MAX_LOOKUP_TABLE_BYTES = 100 * 1024 * 1024;

/**
 * Mixpanel's Lookup Tables API on the ingestion host: list the project's tables, replace one's rows
 * with a CSV (gzip allowed). Service account (with `project_id`) or project secret, as /import.
 */
@ApiTags('lookup-tables')
@ApiBasicAuth()
@Controller('lookup-tables')
@UseGuards(ProjectAccessGuard)
@UseFilters(LookupTablesIngestFilter)
export class LookupTablesIngestController {
  constructor(private readonly tables: LookupTablesService) {}

  @Get()
  @RequireRole('consumer')
  @ApiOperation({
    summary: 'List the lookup tables of the project: `{"code":200,"status":"OK","results":[{id,name}]}`',
  })
  @ApiQuery(PROJECT_ID_PARAMETER)
  @ApiOkResponse(INGEST_LIST_RESPONSE)
  @ApiResponse({ status: 401, ...INGEST_ERROR_RESPONSE })
  async list(@CurrentAccess() access: ProjectAccess) {
    const tables = await this.tables.list(access.scope);
    return { code: 200, status: 'OK', results: tables.map((table) => ({ id: table.id, name: table.name })) };
  }

  @Put(':id')
  @RequireRole('admin')
  @ApiOperation({
    summary:
      'Replace a lookup table with a CSV (header row; first column the unique key), all or nothing; up to 100 MB uncompressed',
  })
  @ApiConsumes('text/csv')
  @ApiQuery(PROJECT_ID_PARAMETER)
  @ApiOkResponse(INGEST_REPLACED_RESPONSE)
  @ApiResponse({
    status: 400,
    description: 'The CSV failed validation (at most 10 failed_records)',
    ...INGEST_ERROR_RESPONSE,
  })
  @ApiResponse({ status: 404, description: 'No such lookup table in the project', ...INGEST_ERROR_RESPONSE })
  @ApiResponse({ status: 413, description: 'Over 100 MB uncompressed', ...INGEST_ERROR_RESPONSE })
  async replace(@CurrentAccess() access: ProjectAccess, @Param('id') id: string, @Req() req: Request) {
    await this.tables.get(access.scope, id);
    const body = await readRequestBody(req, MAX_LOOKUP_TABLE_BYTES);
    await this.tables.replace(access.scope, id, body.toString('utf8'));
    return { code: 200, status: 'OK' };
  }
}

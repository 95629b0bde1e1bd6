import { CurrentAccess, ProjectAccess } from '@analytics/auth';
import { QuerySignal } from '@analytics/rate-limits';
import { Get, Req } from '@nestjs/common';
import { ApiOperation } from '@nestjs/swagger';
import { ApiQueryParameters } from '@analytics/http';
import { QUERY_PARAMETERS } from '../http/query-parameters';
import type { Request } from 'express';
import { QueryApiController, queryParams } from '../http/query-api';
import { InsightsService } from './insights.service';

@QueryApiController('query: insights')
export class InsightsController {
  constructor(private readonly insights: InsightsService) {}

  @Get('insights')
  @ApiOperation({ summary: 'A saved insights report (bookmark_id), computed now' })
  @ApiQueryParameters(QUERY_PARAMETERS.insights)
  report(@Req() req: Request, @CurrentAccess() access: ProjectAccess, @QuerySignal() signal?: AbortSignal) {
    return this.insights.report(
      access.scope,
      queryParams(req, access.scope).requiredInteger('bookmark_id', 1, 2 ** 31 - 1),
      signal,
    );
  }
}

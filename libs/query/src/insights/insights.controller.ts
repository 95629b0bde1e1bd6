import { CurrentAccess, ProjectAccess } from '@analytics/auth';
import { QuerySignal } from '@analytics/rate-limits';
import { unsavedInsightsParams } from '@analytics/reports';
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
  @ApiOperation({ summary: 'A saved insights report (bookmark_id), or an unsaved definition (params), computed now' })
  @ApiQueryParameters(QUERY_PARAMETERS.insights)
  report(@Req() req: Request, @CurrentAccess() access: ProjectAccess, @QuerySignal() signal?: AbortSignal) {
    const params = queryParams(req, access.scope);
    const unsaved = params.text('params');
    if (unsaved !== undefined && params.text('bookmark_id') === undefined)
      return this.insights.run(access.scope, unsavedInsightsParams(unsaved), signal);
    return this.insights.report(access.scope, params.requiredInteger('bookmark_id', 1, 2 ** 31 - 1), signal);
  }
}

import { CurrentAccess, ProjectAccess } from '@analytics/auth';
import { QuerySignal } from '@analytics/rate-limits';
import { unsavedFunnelDefinition } from '@analytics/reports';
import { Get, Req } from '@nestjs/common';
import { ApiOperation } from '@nestjs/swagger';
import { ApiQueryParameters } from '@analytics/http';
import { QUERY_PARAMETERS } from '../http/query-parameters';
import type { Request } from 'express';
import { QueryApiController, queryParams } from '../http/query-api';
import { parseFunnelQuery, parseFunnelRun } from './funnel-spec';
import { FunnelsService } from './funnels.service';

@QueryApiController('query: funnels')
export class FunnelsController {
  constructor(private readonly funnels: FunnelsService) {}

  @Get('funnels')
  @ApiOperation({
    summary:
      'A saved funnel (funnel_id), or an unsaved definition (params), over from_date..to_date, by date bucket (and segment with on)',
  })
  @ApiQueryParameters(QUERY_PARAMETERS.funnels)
  funnel(@Req() req: Request, @CurrentAccess() access: ProjectAccess, @QuerySignal() signal?: AbortSignal) {
    const params = queryParams(req, access.scope);
    const unsaved = params.text('params');
    if (unsaved !== undefined && params.text('funnel_id') === undefined)
      return this.funnels.run(access.scope, unsavedFunnelDefinition(unsaved), parseFunnelRun(params), signal);
    return this.funnels.query(access.scope, parseFunnelQuery(params), signal);
  }

  @Get('funnels/list')
  @ApiOperation({ summary: 'The saved funnels: funnel_id and name' })
  @ApiQueryParameters(QUERY_PARAMETERS.funnelList)
  list(@CurrentAccess() access: ProjectAccess) {
    return this.funnels.list(access.scope);
  }
}

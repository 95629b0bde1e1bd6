import { CurrentAccess, ProjectAccess } from '@analytics/auth';
import { QuerySignal } from '@analytics/rate-limits';
import { Get, Req } from '@nestjs/common';
import { ApiOperation } from '@nestjs/swagger';
import { ApiQueryParameters } from '@analytics/http';
import { QUERY_PARAMETERS } from '../http/query-parameters';
import type { Request } from 'express';
import { QueryApiController, queryParams } from '../http/query-api';
import { parseAddictionQuery } from './addiction';
import { parseRetentionQuery } from './retention-spec';
import { RetentionService } from './retention.service';

@QueryApiController('query: retention')
export class RetentionController {
  constructor(private readonly retention: RetentionService) {}

  @Get('retention')
  @ApiOperation({ summary: 'Birth or compounded retention, keyed by cohort date: {counts, first}' })
  @ApiQueryParameters(QUERY_PARAMETERS.retention)
  cohorts(@Req() req: Request, @CurrentAccess() access: ProjectAccess, @QuerySignal() signal?: AbortSignal) {
    return this.retention.retention(access.scope, parseRetentionQuery(queryParams(req, access.scope)), signal);
  }

  @Get('retention/addiction')
  @ApiOperation({ summary: 'Frequency: per period, users active in at least k+1 hours or days of it' })
  @ApiQueryParameters(QUERY_PARAMETERS.addiction)
  addiction(@Req() req: Request, @CurrentAccess() access: ProjectAccess, @QuerySignal() signal?: AbortSignal) {
    return this.retention.addiction(access.scope, parseAddictionQuery(queryParams(req, access.scope)), signal);
  }
}

import { CurrentAccess, ProjectAccess } from '@analytics/auth';
import { QuerySignal } from '@analytics/rate-limits';
import { Get, HttpCode, Post } from '@nestjs/common';
import { ApiOperation } from '@nestjs/swagger';
import { ApiQueryParameters } from '@analytics/http';
import { QUERY_PARAMETERS } from '../http/query-parameters';
import { QueryApiController } from '../http/query-api';
import { CohortsListService } from './cohorts-list.service';

@QueryApiController('query: cohorts')
export class CohortsListController {
  constructor(private readonly cohorts: CohortsListService) {}

  @Post('cohorts/list')
  @HttpCode(200)
  @ApiOperation({ summary: 'The saved cohorts with how many users are in each now' })
  @ApiQueryParameters(QUERY_PARAMETERS.cohortList)
  list(@CurrentAccess() access: ProjectAccess, @QuerySignal() signal?: AbortSignal) {
    return this.cohorts.list(access.scope, signal);
  }

  @Get('cohorts/list')
  @ApiOperation({ summary: 'The same list, for clients that send GET' })
  @ApiQueryParameters(QUERY_PARAMETERS.cohortList)
  listByGet(@CurrentAccess() access: ProjectAccess, @QuerySignal() signal?: AbortSignal) {
    return this.cohorts.list(access.scope, signal);
  }
}

import { CurrentAccess, ProjectAccess, QueryAccessGuard, RequireRole } from '@analytics/auth';
import { Clock } from '@analytics/clock';
import { ApiFormFields, ApiQueryParameters, QueryFamilyController } from '@analytics/http';
import { QueryQuotaInterceptor, QuerySignal } from '@analytics/rate-limits';
import { Get, HttpCode, Post, Req, UseInterceptors } from '@nestjs/common';
import { ApiOperation } from '@nestjs/swagger';
import type { Request } from 'express';
import { parseProfileQuery, PROFILE_QUERY_PARAMETERS } from './profile-query-request';
import { ProfileQueryResult, ProfileQueryService } from './profile-query.service';

const PATHS = ['api/query/engage', 'api/2.0/engage'];
const SUMMARY =
  'Query profiles: `{"page","page_size","session_id","status","total","results":[{"$distinct_id","$properties"}]}`';

/** The profile query, as query parameters or form (or JSON) fields; it spends the query API's quota and keeps its data residency. */
@QueryFamilyController('/', { tag: 'query', access: QueryAccessGuard })
@UseInterceptors(QueryQuotaInterceptor)
export class ProfileQueryController {
  constructor(
    private readonly profiles: ProfileQueryService,
    private readonly clock: Clock,
  ) {}

  @Get(PATHS)
  @RequireRole('consumer')
  @ApiOperation({ summary: SUMMARY })
  @ApiQueryParameters(PROFILE_QUERY_PARAMETERS)
  queryFromParameters(
    @Req() req: Request,
    @CurrentAccess() access: ProjectAccess,
    @QuerySignal() signal?: AbortSignal,
  ): Promise<ProfileQueryResult> {
    return this.answer(req, access, signal);
  }

  @Post(PATHS)
  @HttpCode(200)
  @RequireRole('consumer')
  @ApiOperation({ summary: SUMMARY })
  @ApiFormFields(PROFILE_QUERY_PARAMETERS)
  queryFromForm(
    @Req() req: Request,
    @CurrentAccess() access: ProjectAccess,
    @QuerySignal() signal?: AbortSignal,
  ): Promise<ProfileQueryResult> {
    return this.answer(req, access, signal);
  }

  private answer(req: Request, access: ProjectAccess, signal: AbortSignal | undefined): Promise<ProfileQueryResult> {
    const parameters = Object.fromEntries(new URL(req.originalUrl, 'http://local').searchParams);
    const fields = { ...parameters, ...((req.body as Record<string, unknown> | undefined) ?? {}) };
    return this.profiles.query(access.scope, parseProfileQuery(fields, this.clock.now()), signal);
  }
}

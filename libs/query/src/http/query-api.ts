import { QueryAccessGuard, RequireRole } from '@analytics/auth';
import { QUERY_API_PREFIXES, QueryFamilyController } from '@analytics/http';
import { QueryQuotaInterceptor } from '@analytics/rate-limits';
import { applyDecorators, UseInterceptors } from '@nestjs/common';
import { ProjectScope } from '@analytics/tenancy';
import type { Request } from 'express';
import { TimeZone } from '../time/time-zone';
import { QueryParams } from './query-params';

/**
 * A query API controller: under /api/query and /api/2.0, any role on the project (consumers read)
 * on a host that serves the project's data region,
 * the project's query quota (shared with the profile query), and `{"request","error"}` failures.
 */
export function QueryApiController(tag: string): ClassDecorator {
  return applyDecorators(
    QueryFamilyController(QUERY_API_PREFIXES, { tag, access: QueryAccessGuard }),
    RequireRole('consumer'),
    UseInterceptors(QueryQuotaInterceptor),
  );
}

/** The request's parameters, its dates read in the project's time zone. */
export function queryParams(req: Request, scope: ProjectScope): QueryParams {
  return QueryParams.from(req.originalUrl, req.method === 'POST' ? req.body : undefined, TimeZone.of(scope.timeZone));
}

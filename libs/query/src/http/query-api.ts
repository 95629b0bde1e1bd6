import { QueryAccessGuard, RequireRole } from '@analytics/auth';
import { QUERY_API_PREFIXES, QueryFamilyController } from '@analytics/http';
import { QueryQuotaInterceptor } from '@analytics/rate-limits';
import { applyDecorators, UseInterceptors } from '@nestjs/common';
import type { Request } from 'express';
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

export function queryParams(req: Request): QueryParams {
  return QueryParams.from(req.originalUrl, req.method === 'POST' ? req.body : undefined);
}

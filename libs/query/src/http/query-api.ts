import { ProjectAccessGuard, RequireRole } from '@analytics/auth';
import { QueryApiErrorFilter } from '@analytics/http';
import { applyDecorators, Controller, UseFilters, UseGuards, UseInterceptors } from '@nestjs/common';
import { ApiBasicAuth, ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import { QueryParams } from './query-params';
import { QueryQuotaInterceptor } from './query-quota.interceptor';

/** Both prefixes the real API answers under. */
export const QUERY_API_PREFIXES = ['api/query', 'api/2.0'];

/**
 * A query API controller: under /api/query and /api/2.0, any role on the project (consumers read),
 * the project's query quota, and `{"request","error"}` failures.
 */
export function QueryApiController(tag: string): ClassDecorator {
  return applyDecorators(
    ApiTags(tag),
    ApiBasicAuth(),
    Controller(QUERY_API_PREFIXES),
    UseGuards(ProjectAccessGuard),
    RequireRole('consumer'),
    UseInterceptors(QueryQuotaInterceptor),
    UseFilters(QueryApiErrorFilter),
  );
}

export function queryParams(req: Request): QueryParams {
  return QueryParams.from(req.originalUrl, req.method === 'POST' ? req.body : undefined);
}

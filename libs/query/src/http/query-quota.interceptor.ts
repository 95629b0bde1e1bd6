import { ProjectAccess } from '@analytics/auth';
import { RateLimiterFactory, RequestQuota } from '@analytics/rate-limits';
import { CallHandler, createParamDecorator, ExecutionContext, Inject, Injectable, NestInterceptor } from '@nestjs/common';
import type { Request, Response } from 'express';
import { finalize, Observable } from 'rxjs';
import { QueryError, QueryErrorCode } from '../query-error';
import { QUERY_SETTINGS, QuerySettings } from '../query-settings';

type QueryRequest = Request & { projectAccess?: ProjectAccess; querySignal?: AbortSignal };

/**
 * The query API's limits per project (per hour, per second, at once; shared across replicas through
 * Redis when configured): a query over them is a 429 with Retry-After. A query in flight holds its
 * concurrency slot until it ends, and is cancelled when the client disconnects.
 * Runs after ProjectAccessGuard, so only authenticated requests spend the quota.
 */
@Injectable()
export class QueryQuotaInterceptor implements NestInterceptor {
  private readonly quota: RequestQuota;

  constructor(limits: RateLimiterFactory, @Inject(QUERY_SETTINGS) settings: QuerySettings) {
    this.quota = limits.quota({ name: 'query', ...settings.limits });
  }

  async intercept(context: ExecutionContext, next: CallHandler): Promise<Observable<unknown>> {
    const req = context.switchToHttp().getRequest<QueryRequest>();
    const res = context.switchToHttp().getResponse<Response>();
    const slot = await this.quota.acquire(req.projectAccess!.project.id);
    if (!slot.allowed) throw new QueryError(QueryErrorCode.RateLimited, `rate limit exceeded: ${slot.reason}`, slot.retryAfterSeconds);
    const abort = new AbortController();
    res.on('close', () => {
      if (!res.writableFinished) abort.abort();
    });
    req.querySignal = abort.signal;
    return next.handle().pipe(finalize(() => void slot.release()));
  }
}

/** The signal that aborts when the client of this query goes away. */
export const QuerySignal = createParamDecorator((_: unknown, context: ExecutionContext): AbortSignal | undefined => {
  return context.switchToHttp().getRequest<QueryRequest>().querySignal;
});

import { AppConfig } from '@analytics/config';
import { CallHandler, createParamDecorator, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import type { Request, Response } from 'express';
import { finalize, Observable } from 'rxjs';
import { RateLimitError } from './rate-limit-error';
import { RateLimiterFactory } from './rate-limiter.factory';
import { ReadingQuota } from './reading-quota';

/** What the access guard put on the request (libs/auth's ProjectAccess, of which only the project id is read here). */
type QueryRequest = Request & { projectAccess?: { project: { id: number } }; querySignal?: AbortSignal };

/**
 * The query API's limits per project (per hour, per second, at once: QUERY_LIMIT_*), one budget for
 * every endpoint of the query family that carries this interceptor (the reports of libs/query and
 * the profile query alike; the console's calls spend its own budget, CONSOLE_QUERY_LIMIT_*), shared
 * across replicas through Redis when configured: a query over them
 * is a 429 with Retry-After. A query in flight holds its concurrency slot until it ends, and is
 * cancelled when the client disconnects. Runs after the access guard, so only authenticated
 * requests spend the quota.
 */
@Injectable()
export class QueryQuotaInterceptor implements NestInterceptor {
  private readonly quota: ReadingQuota;

  constructor(limits: RateLimiterFactory, config: AppConfig) {
    // One name, one budget: the factory hands every interceptor instance the same quotas.
    this.quota = limits.readingQuota('query', config.query.limits, config.consoleLimits.query);
  }

  async intercept(context: ExecutionContext, next: CallHandler): Promise<Observable<unknown>> {
    const req = context.switchToHttp().getRequest<QueryRequest>();
    const res = context.switchToHttp().getResponse<Response>();
    const slot = await this.quota.for(req.headers).acquire(req.projectAccess!.project.id);
    // The real API's words: connectors (Airbyte's) back off on "Query rate limit exceeded" as on Retry-After.
    if (!slot.allowed)
      throw new RateLimitError(429, `Query rate limit exceeded: ${slot.reason}`, slot.retryAfterSeconds);
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

import { loadConfig } from '@analytics/config';
import { RateLimiterFactory } from '@analytics/rate-limits';
import { CallHandler, ExecutionContext } from '@nestjs/common';
import { EventEmitter } from 'node:events';
import { firstValueFrom, Subject } from 'rxjs';
import { QueryQuotaInterceptor } from './query-quota.interceptor';

function httpContext(projectId: number) {
  const req: { projectAccess: { project: { id: number } }; querySignal?: AbortSignal } = { projectAccess: { project: { id: projectId } } };
  const res = Object.assign(new EventEmitter(), { writableFinished: false });
  const context = { switchToHttp: () => ({ getRequest: () => req, getResponse: () => res }) } as unknown as ExecutionContext;
  return { req, res, context };
}

describe('QueryQuotaInterceptor', () => {
  const settings = { limits: { perHour: 100, perSecond: 100, concurrent: 1 }, maxExecutionSeconds: 60 };
  const interceptor = () => new QueryQuotaInterceptor(new RateLimiterFactory(loadConfig({})), settings);

  it('holds the concurrency slot until the query ends, then gives it back', async () => {
    const quota = interceptor();
    const running = new Subject<unknown>();
    const first = httpContext(1);
    const inFlight = firstValueFrom(await quota.intercept(first.context, { handle: () => running } as CallHandler));
    await expect(quota.intercept(httpContext(1).context, { handle: () => running } as CallHandler)).rejects.toMatchObject({ status: 429, retryAfterSeconds: expect.any(Number) });
    running.next('done');
    running.complete();
    await inFlight;
    await new Promise((resolve) => setImmediate(resolve));
    await expect(quota.intercept(httpContext(1).context, { handle: () => new Subject() } as CallHandler)).resolves.toBeDefined();
  });

  it('aborts the query when the client goes away before the answer', async () => {
    const { req, res, context } = httpContext(2);
    await interceptor().intercept(context, { handle: () => new Subject() } as CallHandler);
    expect(req.querySignal?.aborted).toBe(false);
    res.emit('close');
    expect(req.querySignal?.aborted).toBe(true);
  });
});

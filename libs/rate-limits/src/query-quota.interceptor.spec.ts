import { RandomIds, SystemClock } from '@analytics/clock';
import { loadConfig } from '@analytics/config';
import { CallHandler, ExecutionContext } from '@nestjs/common';
import { EventEmitter } from 'node:events';
import { firstValueFrom, Subject } from 'rxjs';
import { QueryQuotaInterceptor } from './query-quota.interceptor';
import { RateLimiterFactory } from './rate-limiter.factory';

function httpContext(projectId: number) {
  const req: {
    headers: Record<string, string>;
    projectAccess: { project: { id: number } };
    querySignal?: AbortSignal;
  } = { headers: {}, projectAccess: { project: { id: projectId } } };
  const res = Object.assign(new EventEmitter(), { writableFinished: false });
  const context = {
    switchToHttp: () => ({ getRequest: () => req, getResponse: () => res }),
  } as unknown as ExecutionContext;
  return { req, res, context };
}

describe('QueryQuotaInterceptor', () => {
  const config = loadConfig({
    QUERY_LIMIT_PER_HOUR: '100',
    QUERY_LIMIT_PER_SECOND: '100',
    QUERY_LIMIT_CONCURRENT: '1',
  });
  const interceptor = () =>
    new QueryQuotaInterceptor(new RateLimiterFactory(config, new SystemClock(), new RandomIds()), config);

  it('holds the concurrency slot until the query ends, then gives it back', async () => {
    const quota = interceptor();
    const running = new Subject<unknown>();
    const first = httpContext(1);
    const inFlight = firstValueFrom(await quota.intercept(first.context, { handle: () => running } as CallHandler));
    await expect(
      quota.intercept(httpContext(1).context, { handle: () => running } as CallHandler),
    ).rejects.toMatchObject({ status: 429, retryAfterSeconds: expect.any(Number) });
    running.next('done');
    running.complete();
    await inFlight;
    await new Promise((resolve) => setImmediate(resolve));
    await expect(
      quota.intercept(httpContext(1).context, { handle: () => new Subject() } as CallHandler),
    ).resolves.toBeDefined();
  });

  it('aborts the query when the client goes away before the answer', async () => {
    const { req, res, context } = httpContext(2);
    await interceptor().intercept(context, { handle: () => new Subject() } as CallHandler);
    expect(req.querySignal?.aborted).toBe(false);
    res.emit('close');
    expect(req.querySignal?.aborted).toBe(true);
  });

  it('gives every instance made by one factory the same budget (the query API and the profile query share it)', async () => {
    const limits = new RateLimiterFactory(config, new SystemClock(), new RandomIds());
    const [reports, profiles] = [new QueryQuotaInterceptor(limits, config), new QueryQuotaInterceptor(limits, config)];
    await reports.intercept(httpContext(3).context, { handle: () => new Subject() } as CallHandler);
    await expect(
      profiles.intercept(httpContext(3).context, { handle: () => new Subject() } as CallHandler),
    ).rejects.toMatchObject({ status: 429 });
  });
});

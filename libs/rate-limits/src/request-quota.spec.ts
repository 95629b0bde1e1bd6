import { RandomIds, SystemClock } from '@analytics/clock';
import { loadConfig } from '@analytics/config';
import { RateLimiterFactory } from './rate-limiter.factory';

describe('RequestQuota (in memory)', () => {
  const factory = new RateLimiterFactory(loadConfig({}), new SystemClock(), new RandomIds());

  it('allows as many at once as the concurrency limit, and another once one is released', async () => {
    const quota = factory.quota({ name: 'concurrency-test', perHour: 100, perSecond: 100, concurrent: 2 });
    const first = await quota.acquire(1);
    const second = await quota.acquire(1);
    expect([first.allowed, second.allowed]).toEqual([true, true]);
    expect(await quota.acquire(1)).toMatchObject({ allowed: false, reason: 'too many concurrent queries' });
    expect((await quota.acquire(2)).allowed).toBe(true); // projects are counted apart
    if (first.allowed) await first.release();
    expect((await quota.acquire(1)).allowed).toBe(true);
  });

  it('refuses past the per-second rate with a Retry-After, without holding a concurrency slot', async () => {
    const quota = factory.quota({ name: 'rate-test', perHour: 100, perSecond: 2, concurrent: 10 });
    for (let i = 0; i < 2; i++) {
      const slot = await quota.acquire(7);
      if (slot.allowed) await slot.release();
    }
    expect(await quota.acquire(7)).toEqual({
      allowed: false,
      reason: 'too many queries per second',
      retryAfterSeconds: 1,
    });
  });

  it('refuses past the hourly budget', async () => {
    const quota = factory.quota({ name: 'hour-test', perHour: 1, perSecond: 10, concurrent: 10 });
    await quota.acquire(9);
    expect(await quota.acquire(9)).toMatchObject({ allowed: false, reason: 'too many queries this hour' });
  });
});

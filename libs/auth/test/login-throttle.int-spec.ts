import { RandomIds, SystemClock } from '@analytics/clock';
import { loadConfig } from '@analytics/config';
import { RateLimiterFactory } from '@analytics/rate-limits';
import { randomBytes } from 'node:crypto';
import { LoginThrottle } from '../src/login-throttle';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

/** Two replicas share their counts of failed logins through Redis. */
describe('LoginThrottle across replicas (Redis)', () => {
  const config = loadConfig({
    REDIS_URL,
    AUTH_FAILURES_PER_IP: '2',
    AUTH_FAILURES_PER_USERNAME: '3',
    AUTH_FAILURE_WINDOW_SECONDS: '60',
  });
  const factories = [
    new RateLimiterFactory(config, new SystemClock(), new RandomIds()),
    new RateLimiterFactory(config, new SystemClock(), new RandomIds()),
  ];
  const [first, second] = factories.map((factory) => new LoginThrottle(factory, config));
  // Addresses and usernames of their own, so counts left in Redis by earlier runs never meet these.
  const run = randomBytes(4).toString('hex');
  const ip = (n: number) => `2001:db8:${run.slice(0, 4)}:${run.slice(4, 7)}${n}::1`;

  beforeAll(() => Promise.all(factories.map((factory) => factory.onModuleInit())));
  afterAll(() => Promise.all(factories.map((factory) => factory.onApplicationShutdown())));

  it('refuses on one replica an address that failed on the other', async () => {
    await first.admit({ ip: ip(1) });
    await second.admit({ ip: ip(1) });
    await expect(first.admit({ ip: ip(1) })).rejects.toMatchObject({
      status: 429,
      retryAfterSeconds: expect.any(Number),
    });
    await expect(second.admit({ ip: ip(1) })).rejects.toMatchObject({ status: 429 });
    await expect(second.admit({ ip: ip(2) })).resolves.toBeUndefined();
  });

  it('gives back on one replica what a success took there, without touching the other failures', async () => {
    await first.admit({ ip: ip(3) });
    await second.admit({ ip: ip(3) });
    await second.succeeded({ ip: ip(3) });
    await expect(first.admit({ ip: ip(3) })).resolves.toBeUndefined();
    await expect(second.admit({ ip: ip(3) })).rejects.toMatchObject({ status: 429 });
  });

  it('counts a username across addresses and replicas', async () => {
    const username = `target.${run}.service-account`;
    await first.admit({ ip: ip(4), username });
    await second.admit({ ip: ip(5), username });
    await first.admit({ ip: ip(6), username });
    await expect(second.admit({ ip: ip(7), username })).rejects.toMatchObject({
      status: 429,
      message: expect.stringContaining('for this account'),
    });
    // The refused attempt took nothing from its address.
    await expect(second.admit({ ip: ip(7) })).resolves.toBeUndefined();
    await expect(second.admit({ ip: ip(7) })).resolves.toBeUndefined();
  });

  it('admits on one replica, past the username limit, an address that signed in as it on the other', async () => {
    const username = `owner.${run}.service-account`;
    const other = (n: number) => `2001:db9:${run.slice(0, 4)}:${n}::1`;
    await first.admit({ ip: other(1), username });
    await first.succeeded({ ip: other(1), username });
    for (let n = 2; n < 5; n++) await second.admit({ ip: other(n), username });
    await expect(first.admit({ ip: other(5), username })).rejects.toMatchObject({
      status: 429,
      message: expect.stringContaining('for this account'),
    });
    await expect(second.admit({ ip: other(1), username })).resolves.toBeUndefined();
  });
});

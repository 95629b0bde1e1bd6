import { RandomIds, SystemClock } from '@analytics/clock';
import { loadConfig } from '@analytics/config';
import { RateLimiterFactory } from '@analytics/rate-limits';
import { LoginThrottle } from './login-throttle';

/** In memory (no Redis): the rules of the throttle, replica by replica. */
describe('LoginThrottle', () => {
  const config = loadConfig({
    AUTH_FAILURES_PER_IP: '3',
    AUTH_FAILURES_PER_USERNAME: '5',
    AUTH_FAILURE_WINDOW_SECONDS: '60',
  });
  const throttle = () => new LoginThrottle(new RateLimiterFactory(config, new SystemClock(), new RandomIds()), config);
  const username = 'owner.service-account';
  const attacker = (n: number) => ({ ip: `198.51.100.${n}`, username });
  /** Wrong guesses from 25 addresses: each admitted until the username is past its limit, then refused. */
  const guessFromEverywhere = async (limiter: LoginThrottle) => {
    const outcomes = [];
    for (let n = 1; n <= 25; n++)
      outcomes.push(
        await limiter.admit(attacker(n)).then(
          () => 'admitted',
          (e: { status: number }) => e.status,
        ),
      );
    return outcomes;
  };

  it('refuses a username past its failures from addresses that never signed in as it', async () => {
    const limiter = throttle();
    expect(await guessFromEverywhere(limiter)).toEqual([...Array(5).fill('admitted'), ...Array(20).fill(429)]);
    await expect(limiter.admit({ ip: '203.0.113.9', username })).rejects.toMatchObject({
      status: 429,
      message: expect.stringContaining('for this account'),
    });
  });

  it('keeps admitting the owner from an address it signed in from, while others fail for its username', async () => {
    const limiter = throttle();
    const owner = { ip: '203.0.113.1', username };
    await limiter.admit(owner);
    await limiter.succeeded(owner);
    await guessFromEverywhere(limiter);
    for (let i = 0; i < 10; i++) {
      await expect(limiter.admit(owner)).resolves.toBeUndefined();
      await limiter.succeeded(owner);
    }
    // Known for this username only: another username from there is counted as before.
    await expect(limiter.admit({ ip: '203.0.113.1', username: 'other.service-account' })).resolves.toBeUndefined();
  });

  it('bounds guessing from a known address by that address’s own limit', async () => {
    const limiter = throttle();
    const owner = { ip: '203.0.113.2', username };
    await limiter.admit(owner);
    await limiter.succeeded(owner);
    await guessFromEverywhere(limiter);
    for (let i = 0; i < 3; i++) await limiter.admit(owner); // three wrong secrets from the owner's address
    await expect(limiter.admit(owner)).rejects.toMatchObject({
      status: 429,
      message: expect.stringContaining('from this address'),
    });
  });
});

import { RandomIds, SystemClock } from '@analytics/clock';
import { eventually } from '@analytics/testing';
import Redis from 'ioredis';
import { randomBytes } from 'node:crypto';
import { ConcurrencySlots } from '../src/concurrency-slots';

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

/**
 * Concurrency slots are leases: a replica killed mid-query (here: one that stops renewing without
 * releasing) holds its slots for one lease at most, not until the project gets 429 forever.
 * Against the real Redis the machine runs, two "replicas" sharing it; and in memory.
 */
describe.each(['redis', 'memory'] as const)('concurrency slots (%s)', (store) => {
  let redis: Redis | undefined;
  const replicas: ConcurrencySlots[] = [];
  const name = `slots-test-${randomBytes(4).toString('hex')}`;

  beforeAll(async () => {
    if (store === 'redis') {
      redis = new Redis(REDIS_URL, { maxRetriesPerRequest: 1, enableOfflineQueue: false, lazyConnect: true });
      await redis.connect();
    }
  });
  afterAll(async () => {
    for (const replica of replicas) replica.abandon();
    await redis?.quit();
  });

  const replica = (leaseMs: number) => {
    const slots = new ConcurrencySlots(
      { name: `${name}-${leaseMs}`, limit: 2, leaseMs },
      new SystemClock(),
      new RandomIds(),
      redis,
    );
    replicas.push(slots);
    return slots;
  };

  it('holds at most the limit at once, per key, and frees a slot on release', async () => {
    const slots = replica(10_000);
    const [first, second] = [await slots.acquire(1), await slots.acquire(1)];
    expect(first && second).toBeTruthy();
    expect(await slots.acquire(1)).toBeUndefined();
    expect(await slots.acquire(2)).toBeDefined(); // another project counts apart
    await first!.release();
    await first!.release(); // twice is once
    expect(await slots.acquire(1)).toBeDefined();
    expect(await slots.acquire(1)).toBeUndefined();
  });

  it('keeps a slot held past its lease while its holder renews it', async () => {
    // Renewed every third of a lease: a 2 s lease survives event-loop stalls of over a second on a
    // loaded CI machine (a 300 ms lease did not), and 5 s still spans two and a half leases.
    const slots = replica(2_000);
    const held = [await slots.acquire(3), await slots.acquire(3)];
    await new Promise((resolve) => setTimeout(resolve, 5_000));
    expect(await slots.acquire(3)).toBeUndefined();
    for (const slot of held) await slot!.release();
  });

  it("gives back a dead holder's slots once its lease runs out", async () => {
    const dying = replica(400);
    expect(await dying.acquire(4)).toBeDefined();
    expect(await dying.acquire(4)).toBeDefined();
    dying.abandon(); // killed: no release, no renewal
    // Shared through Redis, another replica sees the dead one's slots; in memory, only the same process would.
    const survivor =
      store === 'redis'
        ? new ConcurrencySlots(
            { name: `${name}-400`, limit: 2, leaseMs: 400 },
            new SystemClock(),
            new RandomIds(),
            redis,
          )
        : dying;
    replicas.push(survivor);
    expect(await survivor.acquire(4)).toBeUndefined();
    await eventually(async () => expect(await survivor.acquire(4)).toBeDefined(), { timeoutMs: 5_000 });
  });
});

import { Clock, IdSource } from '@analytics/clock';
import { AppConfig, ReadingLimits } from '@analytics/config';
import { Injectable, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import Redis from 'ioredis';
import { RateLimiterAbstract, RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import { ConcurrencySlots } from './concurrency-slots';
import { ReadingQuota } from './reading-quota';

export interface RateLimitRule {
  /** Distinguishes the counters of different limits in a shared store. */
  name: string;
  points: number;
  durationSeconds: number;
}

export type RateLimitDecision = { allowed: true } | { allowed: false; retryAfterSeconds: number };

/** One named limit; `consume` takes points (requests, or events) for a key such as a project id. */
export class RateLimit {
  constructor(private readonly limiter: RateLimiterAbstract) {}

  async consume(key: string | number, points = 1): Promise<RateLimitDecision> {
    try {
      await this.limiter.consume(String(key), points);
      return { allowed: true };
    } catch (rejection) {
      if (rejection instanceof RateLimiterRes) {
        return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(rejection.msBeforeNext / 1000)) };
      }
      throw rejection;
    }
  }

  /** Gives points back (an attempt that turned out not to count, such as a successful login). */
  async reward(key: string | number, points = 1): Promise<void> {
    await this.limiter.reward(String(key), points);
  }

  /** Sets the key's points to `points` for `seconds` from now, whatever it held: a mark that each call renews. */
  async set(key: string | number, points: number, seconds: number): Promise<void> {
    await this.limiter.set(String(key), points, seconds);
  }

  /** The points the key holds in its current window; 0 when it holds none. */
  async taken(key: string | number): Promise<number> {
    return (await this.limiter.get(String(key)))?.consumedPoints ?? 0;
  }
}

export interface QuotaRule {
  name: string;
  perHour: number;
  perSecond: number;
  concurrent: number;
  /** How long a slot outlives a holder that stopped renewing it (a killed process). */
  slotLeaseMs?: number;
}

export type QuotaDecision =
  { allowed: true; release(): Promise<void> } | { allowed: false; retryAfterSeconds: number; reason: string };

/** The reading APIs' limits per project: queries per hour, per second, and at once. */
export class RequestQuota {
  constructor(
    private readonly perHour: RateLimit,
    private readonly perSecond: RateLimit,
    private readonly concurrent: ConcurrencySlots,
  ) {}

  async acquire(key: string | number): Promise<QuotaDecision> {
    const slot = await this.concurrent.acquire(key);
    if (!slot) return { allowed: false, retryAfterSeconds: 1, reason: 'too many concurrent queries' };
    const checks: [RateLimit, string][] = [
      [this.perSecond, 'too many queries per second'],
      [this.perHour, 'too many queries this hour'],
    ];
    for (const [limit, reason] of checks) {
      const decision = await limit.consume(key);
      if (!decision.allowed) {
        await slot.release();
        return { allowed: false, retryAfterSeconds: decision.retryAfterSeconds, reason };
      }
    }
    return { allowed: true, release: () => slot.release() };
  }
}

/**
 * Limits shared across replicas through Redis when REDIS_URL is set, in this process's memory
 * otherwise. If Redis fails, each replica falls back to its own memory counters rather than
 * refusing traffic.
 */
@Injectable()
export class RateLimiterFactory implements OnModuleInit, OnApplicationShutdown {
  private readonly redis: Redis | undefined;
  /** One limit per rule: callers that name the same rule share its counters, in memory as in Redis. */
  private readonly made = new Map<string, RateLimit | RequestQuota>();

  constructor(
    config: AppConfig,
    private readonly clock: Clock,
    private readonly ids: IdSource,
  ) {
    this.redis = config.redisUrl
      ? new Redis(config.redisUrl, { enableOfflineQueue: false, lazyConnect: false, maxRetriesPerRequest: 1 })
      : undefined;
    this.redis?.on('error', () => undefined); // the insurance limiter takes over; ioredis reconnects
  }

  /** Waits briefly for Redis at start, so the first requests already count in the shared store; never fails the start. */
  async onModuleInit(): Promise<void> {
    const redis = this.redis;
    if (!redis || redis.status === 'ready') return;
    await new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        redis.off('ready', done);
        redis.off('error', done);
        resolve();
      };
      const timer = setTimeout(done, 2_000);
      redis.once('ready', done);
      redis.once('error', done);
    });
  }

  create(rule: RateLimitRule): RateLimit {
    return this.once(`limit:${JSON.stringify(rule)}`, () => this.make(rule));
  }

  quota(rule: QuotaRule): RequestQuota {
    return this.once(`quota:${JSON.stringify(rule)}`, () => this.makeQuota(rule));
  }

  /** A reading API's public budget under `name`, and the console's own under `console-<name>`. */
  readingQuota(name: string, api: ReadingLimits, console: ReadingLimits): ReadingQuota {
    return new ReadingQuota(this.quota({ name, ...api }), this.quota({ name: `console-${name}`, ...console }));
  }

  private once<T extends RateLimit | RequestQuota>(key: string, make: () => T): T {
    const made = this.made.get(key) ?? make();
    this.made.set(key, made);
    return made as T;
  }

  private make(rule: RateLimitRule): RateLimit {
    const options = { keyPrefix: `rl:${rule.name}`, points: rule.points, duration: rule.durationSeconds };
    const memory = new RateLimiterMemory(options);
    return new RateLimit(
      this.redis ? new RateLimiterRedis({ ...options, storeClient: this.redis, insuranceLimiter: memory }) : memory,
    );
  }

  private makeQuota(rule: QuotaRule): RequestQuota {
    return new RequestQuota(
      this.create({ name: `${rule.name}-hour`, points: rule.perHour, durationSeconds: 3600 }),
      this.create({ name: `${rule.name}-second`, points: rule.perSecond, durationSeconds: 1 }),
      // Leases, not counters: a process killed mid-query cannot hold its slots forever.
      new ConcurrencySlots(
        { name: `${rule.name}-concurrent`, limit: rule.concurrent, leaseMs: rule.slotLeaseMs ?? 30_000 },
        this.clock,
        this.ids,
        this.redis,
      ),
    );
  }

  async onApplicationShutdown(): Promise<void> {
    await this.redis?.quit().catch(() => undefined);
  }
}

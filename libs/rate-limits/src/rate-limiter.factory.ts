import { AppConfig } from '@analytics/config';
import { Injectable, OnApplicationShutdown } from '@nestjs/common';
import Redis from 'ioredis';
import { RateLimiterAbstract, RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';

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

  /** Gives points back, e.g. when a concurrency slot is released. */
  async release(key: string | number, points = 1): Promise<void> {
    await this.limiter.reward(String(key), points);
  }
}

export interface QuotaRule {
  name: string;
  perHour: number;
  perSecond: number;
  concurrent: number;
}

export type QuotaDecision = { allowed: true; release(): Promise<void> } | { allowed: false; retryAfterSeconds: number; reason: string };

/** The reading APIs' limits per project: queries per hour, per second, and at once. */
export class RequestQuota {
  constructor(
    private readonly perHour: RateLimit,
    private readonly perSecond: RateLimit,
    private readonly concurrent: RateLimit,
  ) {}

  async acquire(key: string | number): Promise<QuotaDecision> {
    const checks: [RateLimit, string][] = [
      [this.concurrent, 'too many concurrent queries'],
      [this.perSecond, 'too many queries per second'],
      [this.perHour, 'too many queries this hour'],
    ];
    for (const [limit, reason] of checks) {
      const decision = await limit.consume(key);
      if (!decision.allowed) {
        // A refused consume still counts its point: the concurrency point is always given back.
        await this.concurrent.release(key);
        return { allowed: false, retryAfterSeconds: decision.retryAfterSeconds, reason };
      }
    }
    return { allowed: true, release: () => this.concurrent.release(key) };
  }
}

/**
 * Limits shared across replicas through Redis when REDIS_URL is set, in this process's memory
 * otherwise. If Redis fails, each replica falls back to its own memory counters rather than
 * refusing traffic.
 */
@Injectable()
export class RateLimiterFactory implements OnApplicationShutdown {
  private readonly redis: Redis | undefined;

  constructor(config: AppConfig) {
    this.redis = config.redisUrl ? new Redis(config.redisUrl, { enableOfflineQueue: false, lazyConnect: false, maxRetriesPerRequest: 1 }) : undefined;
    this.redis?.on('error', () => undefined); // the insurance limiter takes over; ioredis reconnects
  }

  create(rule: RateLimitRule): RateLimit {
    const options = { keyPrefix: `rl:${rule.name}`, points: rule.points, duration: rule.durationSeconds };
    const memory = new RateLimiterMemory(options);
    return new RateLimit(this.redis ? new RateLimiterRedis({ ...options, storeClient: this.redis, insuranceLimiter: memory }) : memory);
  }

  quota(rule: QuotaRule): RequestQuota {
    return new RequestQuota(
      this.create({ name: `${rule.name}-hour`, points: rule.perHour, durationSeconds: 3600 }),
      this.create({ name: `${rule.name}-second`, points: rule.perSecond, durationSeconds: 1 }),
      // Duration 0 never expires: points come back only when a query ends.
      this.create({ name: `${rule.name}-concurrent`, points: rule.concurrent, durationSeconds: 0 }),
    );
  }

  async onApplicationShutdown(): Promise<void> {
    await this.redis?.quit().catch(() => undefined);
  }
}

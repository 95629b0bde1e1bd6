import { Clock, IdSource } from '@analytics/clock';
import type Redis from 'ioredis';

/** A held slot: renewed while held, given back by `release` (once; later calls do nothing). */
export interface ConcurrencySlot {
  release(): Promise<void>;
}

export interface ConcurrencySlotsOptions {
  /** Distinguishes the slots of different limits in a shared store. */
  name: string;
  limit: number;
  /** How long a slot outlives its holder's last renewal: the bound on a slot leaked by a killed process. */
  leaseMs: number;
}

// Drops expired leases, then takes one if fewer than the limit are held: atomic in Redis.
const ACQUIRE = `
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[1])
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[3]) then return 0 end
redis.call('ZADD', KEYS[1], ARGV[2], ARGV[4])
redis.call('PEXPIRE', KEYS[1], ARGV[5])
return 1`;

// Extends one lease, and the key's own expiry with it (the key outlives its longest lease).
const RENEW = `
redis.call('ZADD', KEYS[1], 'XX', ARGV[1], ARGV[2])
redis.call('PEXPIRE', KEYS[1], ARGV[3])
return 1`;

/**
 * At most `limit` operations at once per key (a project), across replicas when Redis is given.
 * Each slot is a lease that its holder renews while the operation runs, so a process killed mid-query
 * leaks its slots for at most `leaseMs`, never forever. Without Redis (or when Redis fails) the
 * process counts its own slots in memory.
 */
export class ConcurrencySlots {
  private readonly local = new Map<string, Map<string, number>>();
  private readonly renewals = new Set<NodeJS.Timeout>();

  constructor(
    private readonly options: ConcurrencySlotsOptions,
    private readonly clock: Clock,
    private readonly ids: IdSource,
    private readonly redis?: Redis,
  ) {}

  /** A slot for `key`, or undefined when `limit` are held. */
  async acquire(key: string | number): Promise<ConcurrencySlot | undefined> {
    const slotKey = `cs:${this.options.name}:${key}`;
    const id = this.ids.uuid();
    const shared = await this.acquireShared(slotKey, id);
    const taken = shared ?? this.acquireLocal(slotKey, id);
    if (!taken) return undefined;
    const renewal = setInterval(
      () => void this.renew(slotKey, id, shared !== undefined),
      Math.max(50, this.options.leaseMs / 3),
    );
    renewal.unref();
    this.renewals.add(renewal);
    let released = false;
    return {
      release: async () => {
        if (released) return;
        released = true;
        clearInterval(renewal);
        this.renewals.delete(renewal);
        this.local.get(slotKey)?.delete(id);
        if (shared !== undefined) await this.redis!.zrem(slotKey, id).catch(() => undefined);
      },
    };
  }

  /** Stops renewing every slot without giving any back, as a killed process would (tests; shutdown). */
  abandon(): void {
    for (const renewal of this.renewals) clearInterval(renewal);
    this.renewals.clear();
  }

  /** true/false from Redis; undefined when there is no Redis or it failed (memory takes over). */
  private async acquireShared(slotKey: string, id: string): Promise<boolean | undefined> {
    if (!this.redis) return undefined;
    const now = this.clock.now();
    try {
      const taken = await this.redis.eval(
        ACQUIRE,
        1,
        slotKey,
        now,
        now + this.options.leaseMs,
        this.options.limit,
        id,
        this.options.leaseMs * 2,
      );
      return taken === 1;
    } catch {
      return undefined;
    }
  }

  private acquireLocal(slotKey: string, id: string): boolean {
    const now = this.clock.now();
    const held = this.local.get(slotKey) ?? new Map<string, number>();
    for (const [slot, expiry] of held) if (expiry <= now) held.delete(slot);
    if (held.size >= this.options.limit) return false;
    held.set(id, now + this.options.leaseMs);
    this.local.set(slotKey, held);
    return true;
  }

  private async renew(slotKey: string, id: string, shared: boolean): Promise<void> {
    const expiry = this.clock.now() + this.options.leaseMs;
    if (shared) await this.redis!.eval(RENEW, 1, slotKey, expiry, id, this.options.leaseMs * 2).catch(() => undefined);
    else if (this.local.get(slotKey)?.has(id)) this.local.get(slotKey)!.set(id, expiry);
  }
}

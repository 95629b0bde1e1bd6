import { Clock } from '@analytics/clock';
import { createHash } from 'node:crypto';

export interface VerifiedCacheOptions {
  maxEntries?: number;
  /** Each hit restarts the entry's time, so it lives while it is used (least recently used forgotten first). */
  slide?: boolean;
}

/**
 * Remembers successful checks of slow-hashed credentials for a short time, keyed by a SHA-256 of the
 * presented credential (never the plaintext), so hot paths pay the KDF once per TTL, not per request.
 */
export class VerifiedCache<T> {
  private readonly entries = new Map<string, { value: T; expiresAt: number }>();
  private readonly maxEntries: number;
  private readonly slide: boolean;

  constructor(
    private readonly clock: Clock,
    private readonly ttlMs: number,
    options: VerifiedCacheOptions = {},
  ) {
    this.maxEntries = options.maxEntries ?? 10_000;
    this.slide = options.slide ?? false;
  }

  static key(...parts: string[]): string {
    return createHash('sha256').update(parts.join('\u0000')).digest('hex');
  }

  get(key: string): T | undefined {
    const hit = this.entries.get(key);
    if (!hit) return undefined;
    if (hit.expiresAt <= this.clock.now()) {
      this.entries.delete(key);
      return undefined;
    }
    if (this.slide) this.set(key, hit.value);
    return hit.value;
  }

  set(key: string, value: T): void {
    this.entries.delete(key);
    if (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value as string);
    this.entries.set(key, { value, expiresAt: this.clock.now() + this.ttlMs });
  }

  delete(key: string): void {
    this.entries.delete(key);
  }

  clear(): void {
    this.entries.clear();
  }
}

import { createHash } from 'node:crypto';

/**
 * Remembers successful checks of slow-hashed credentials for a short time, keyed by a SHA-256 of the
 * presented credential (never the plaintext), so hot paths pay the KDF once per TTL, not per request.
 */
export class VerifiedCache<T> {
  private readonly entries = new Map<string, { value: T; expiresAt: number }>();

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries = 10_000,
  ) {}

  static key(...parts: string[]): string {
    return createHash('sha256').update(parts.join('\u0000')).digest('hex');
  }

  get(key: string): T | undefined {
    const hit = this.entries.get(key);
    if (!hit) return undefined;
    if (hit.expiresAt > Date.now()) return hit.value;
    this.entries.delete(key);
    return undefined;
  }

  set(key: string, value: T): void {
    if (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value as string);
    this.entries.set(key, { value, expiresAt: Date.now() + this.ttlMs });
  }

  clear(): void {
    this.entries.clear();
  }
}

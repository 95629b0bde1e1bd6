import { verifySecret } from '@analytics/secrets';
import { Injectable, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { AccountsRepository } from './accounts.repository';
import { ProjectMembership, ServiceAccount } from './accounts.schema';
import { VerifiedCache } from './verified-cache';

export interface AuthenticatedAccount {
  account: ServiceAccount;
  memberships: ProjectMembership[];
}

const CACHE_TTL_MS = 30_000;
const LAST_USED_FLUSH_MS = 60_000;

/**
 * Checks service-account Basic credentials. Verified accounts are cached 30 s, so an expiry, a
 * deletion or a removed membership takes effect within that time. `last_used` is kept in memory and
 * written once a minute, not on every request.
 */
@Injectable()
export class ServiceAccountCredentials implements OnModuleInit, OnApplicationShutdown {
  private readonly cache = new VerifiedCache<AuthenticatedAccount>(CACHE_TTL_MS);
  private readonly usedAt = new Map<number, Date>();
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly repository: AccountsRepository) {}

  onModuleInit(): void {
    this.timer = setInterval(() => void this.flushLastUsed(), LAST_USED_FLUSH_MS);
    this.timer.unref();
  }

  async onApplicationShutdown(): Promise<void> {
    clearInterval(this.timer);
    await this.flushLastUsed();
  }

  /** The account if the secret is right and it has not expired; undefined otherwise, whatever the reason. */
  async verify(username: string, secret: string, now = new Date()): Promise<AuthenticatedAccount | undefined> {
    const key = VerifiedCache.key(username, secret);
    let verified = this.cache.get(key);
    if (!verified) {
      // No username holds NUL (Postgres text cannot): unknown, with the same work as any other.
      const account = username.includes('\u0000') ? undefined : await this.repository.findByUsername(username);
      // Same work whether or not the account exists, so timing does not tell.
      const ok = await verifySecret(secret, account?.secretHash ?? DUMMY_HASH);
      if (!account || !ok) return undefined;
      verified = { account, memberships: await this.repository.memberships([account.id]) };
      this.cache.set(key, verified);
    }
    if (verified.account.expires && verified.account.expires <= now) return undefined;
    this.usedAt.set(verified.account.id, now);
    return verified;
  }

  /** Whether these credentials were verified in the last 30 s, so checking them again costs no KDF. */
  isVerified(username: string, secret: string): boolean {
    return this.cache.get(VerifiedCache.key(username, secret)) !== undefined;
  }

  /** Forget cached verifications (after changes made in this process, e.g. a deleted account). */
  forget(): void {
    this.cache.clear();
  }

  /** When each account was last used, including uses not yet written. */
  lastUsed(account: ServiceAccount): Date | null {
    return this.usedAt.get(account.id) ?? account.lastUsed;
  }

  async flushLastUsed(): Promise<void> {
    if (!this.usedAt.size) return;
    const pending = new Map(this.usedAt);
    this.usedAt.clear();
    await this.repository.recordLastUsed(pending).catch(() => pending.forEach((at, id) => this.usedAt.set(id, at)));
  }
}

/** A valid scrypt hash of a random value: verified against when the username is unknown. */
const DUMMY_HASH = 'scrypt$32768$8$1$AAAAAAAAAAAAAAAAAAAAAA==$mKMGTjzr+GrUUKoxKj4QCc7GhfwOEpRKMtpoHX8/bjE=';

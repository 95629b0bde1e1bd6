import { Clock } from '@analytics/clock';
import { verifySecret } from '@analytics/secrets';
import { Injectable, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { AccountsRepository } from './accounts.repository';
import { ProjectMembership, ServiceAccount } from './accounts.schema';
import { VerifiedCache } from './verified-cache';

export interface AuthenticatedAccount {
  account: ServiceAccount;
  memberships: ProjectMembership[];
}

/** How long a verified credential is remembered without use: while used more often, it is never checked by hash again. */
const IDLE_MS = 15 * 60_000;
/** How old the remembered account and memberships may be: an expiry, a deletion or a removed membership takes effect within it. */
const SNAPSHOT_MS = 30_000;
const LAST_USED_FLUSH_MS = 60_000;

interface Verified extends AuthenticatedAccount {
  loadedAt: number;
  /** {@link ServiceAccountCredentials.forget} generation it was loaded in: an older one is re-read. */
  generation: number;
}

/**
 * Checks service-account Basic credentials. A verified credential is remembered while it is used
 * (idle for 15 minutes, forgotten), so a client in use never pays the KDF again and never meets the
 * failed-login throttle, whatever others try against its username. What it gives access to is
 * re-read from Postgres every 30 s without the KDF (the account, its secret hash, its memberships),
 * so an expiry, a deletion, a changed secret or a removed membership takes effect within that time.
 * `last_used` is kept in memory and written once a minute, not on every request.
 */
@Injectable()
export class ServiceAccountCredentials implements OnModuleInit, OnApplicationShutdown {
  private readonly cache: VerifiedCache<Verified>;
  private readonly usedAt = new Map<number, Date>();
  private generation = 0;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly repository: AccountsRepository,
    private readonly clock: Clock,
  ) {
    this.cache = new VerifiedCache<Verified>(clock, IDLE_MS, { slide: true });
  }

  onModuleInit(): void {
    this.timer = setInterval(() => void this.flushLastUsed(), LAST_USED_FLUSH_MS);
    this.timer.unref();
  }

  async onApplicationShutdown(): Promise<void> {
    clearInterval(this.timer);
    await this.flushLastUsed();
  }

  /** The account if the secret is right and it has not expired; undefined otherwise, whatever the reason. */
  async verify(username: string, secret: string): Promise<AuthenticatedAccount | undefined> {
    const key = VerifiedCache.key(username, secret);
    const remembered = this.cache.get(key);
    const verified = remembered ? await this.current(key, remembered) : await this.check(key, username, secret);
    if (!verified) return undefined;
    const now = this.clock.date();
    if (verified.account.expires && verified.account.expires <= now) return undefined;
    this.usedAt.set(verified.account.id, now);
    return { account: verified.account, memberships: verified.memberships };
  }

  /** Whether these credentials were verified before and are still remembered, so checking them again costs no KDF. */
  isVerified(username: string, secret: string): boolean {
    return this.cache.get(VerifiedCache.key(username, secret)) !== undefined;
  }

  /** Re-read every remembered account on its next use (after changes made in this process, e.g. a deleted account). */
  forget(): void {
    this.generation++;
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

  /** The full check: the KDF, same work whether or not the account exists so timing does not tell. */
  private async check(key: string, username: string, secret: string): Promise<Verified | undefined> {
    // No username holds NUL (Postgres text cannot): unknown, with the same work as any other.
    const account = username.includes('\u0000') ? undefined : await this.repository.findByUsername(username);
    const ok = await verifySecret(secret, account?.secretHash ?? DUMMY_HASH);
    if (!account || !ok) return undefined;
    return this.remember(key, account);
  }

  /** A remembered verification, its account re-read when old; forgotten if the account is gone or its secret changed. */
  private async current(key: string, verified: Verified): Promise<Verified | undefined> {
    if (verified.generation === this.generation && this.clock.now() - verified.loadedAt < SNAPSHOT_MS) return verified;
    const account = await this.repository.findAnyById(verified.account.id);
    if (!account || account.secretHash !== verified.account.secretHash) {
      this.cache.delete(key);
      return undefined;
    }
    return this.remember(key, account);
  }

  private async remember(key: string, account: ServiceAccount): Promise<Verified> {
    const generation = this.generation;
    const verified = {
      account,
      memberships: await this.repository.memberships([account.id]),
      loadedAt: this.clock.now(),
      generation,
    };
    this.cache.set(key, verified);
    return verified;
  }
}

/** A valid scrypt hash of a random value: verified against when the username is unknown. */
const DUMMY_HASH = 'scrypt$32768$8$1$AAAAAAAAAAAAAAAAAAAAAA==$mKMGTjzr+GrUUKoxKj4QCc7GhfwOEpRKMtpoHX8/bjE=';

import { Clock } from '@analytics/clock';
import { generateCredential, hashSecret, secretLookupKey, verifySecret } from '@analytics/secrets';
import { Injectable } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { AccountsError, AccountsErrorCode } from './accounts-errors';
import { AccountsRepository } from './accounts.repository';
import { ServiceAccount } from './accounts.schema';
import { AuthenticatedAccount } from './service-account-credentials';
import { VerifiedCache } from './verified-cache';

export const MAX_OAUTH_TOKEN_SECONDS = 90 * 86_400;

/**
 * Bearer tokens for the compliance API. The spec does not say how they are obtained: an owner or
 * admin service account issues them (management API or `npm run admin`); a token acts with the
 * roles of the account that issued it, until it expires.
 */
@Injectable()
export class OAuthTokensService {
  private readonly cache: VerifiedCache<{ serviceAccountId: number; expiresAt: Date }>;

  constructor(
    private readonly repository: AccountsRepository,
    private readonly clock: Clock,
  ) {
    this.cache = new VerifiedCache(clock, 30_000);
  }

  async issue(account: ServiceAccount, expiresInSeconds: number): Promise<{ token: string; expires: Date }> {
    if (!Number.isInteger(expiresInSeconds) || expiresInSeconds < 60 || expiresInSeconds > MAX_OAUTH_TOKEN_SECONDS) {
      throw new AccountsError(
        AccountsErrorCode.InvalidExpiry,
        `expires_in must be a whole number of seconds from 60 to ${MAX_OAUTH_TOKEN_SECONDS}`,
      );
    }
    const token = `${generateCredential()}${randomBytes(8).toString('hex')}`;
    const expires = new Date(this.clock.now() + expiresInSeconds * 1000);
    await this.repository.createOAuthToken({
      serviceAccountId: account.id,
      tokenHash: await hashSecret(token),
      tokenLookup: secretLookupKey(token),
      expiresAt: expires,
    });
    return { token, expires };
  }

  /** Whether this token was verified in the last 30 s, so checking it again costs no KDF. */
  isVerified(token: string): boolean {
    return this.cache.get(VerifiedCache.key(token)) !== undefined;
  }

  /** The issuing account and its memberships, if the token is known and unexpired. */
  async verify(token: string): Promise<AuthenticatedAccount | undefined> {
    const key = VerifiedCache.key(token);
    let hit = this.cache.get(key);
    if (!hit) {
      for (const candidate of await this.repository.findOAuthTokensByLookup(secretLookupKey(token))) {
        if (await verifySecret(token, candidate.tokenHash)) {
          hit = { serviceAccountId: candidate.serviceAccountId, expiresAt: candidate.expiresAt };
          this.cache.set(key, hit);
          break;
        }
      }
    }
    const now = this.clock.date();
    if (!hit || hit.expiresAt <= now) return undefined;
    const account = await this.repository.findAnyById(hit.serviceAccountId);
    if (!account || (account.expires && account.expires <= now)) return undefined;
    return { account, memberships: await this.repository.memberships([account.id]) };
  }
}

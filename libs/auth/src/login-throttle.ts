import { AppConfig } from '@analytics/config';
import { clientAddressKey, RateLimit, RateLimitDecision, RateLimiterFactory } from '@analytics/rate-limits';
import { Injectable } from '@nestjs/common';
import { createHash } from 'node:crypto';
import { AccessDenied } from './access-denied';

/** Who is trying to authenticate: the client's address, and the service-account username if any. */
export interface LoginAttempt {
  ip: string | undefined;
  username?: string;
}

const ALLOWED: RateLimitDecision = { allowed: true };

/**
 * How long an address stays known for a username after a right login from it, renewed by each
 * (below the 24.8 days a timer of the in-memory store can hold).
 */
const KNOWN_ADDRESS_SECONDS = 7 * 86_400;

/**
 * Failed authentications counted per client address (an IPv6 /64) and per service-account username,
 * in a fixed window, across replicas through Redis when REDIS_URL is set. An attempt takes its point
 * before its credentials are checked and gets it back if they were right, so concurrent guesses
 * cannot slip past the limit; past it, attempts are refused with 429 and Retry-After before any
 * credential is hashed, until the window ends. Successes give back only their own points.
 *
 * A username past its limit is refused only from addresses that never signed in as it: one that
 * did (in the last 7 days) keeps being admitted, within its own address limit, so someone failing
 * for a username from elsewhere cannot lock its owner out, and guessing from a known address stays
 * bounded by that address's limit.
 */
@Injectable()
export class LoginThrottle {
  private readonly perIp: RateLimit;
  private readonly perUsername: RateLimit;
  private readonly knownAddresses: RateLimit;

  constructor(limits: RateLimiterFactory, config: AppConfig) {
    const { perIp, perUsername, windowSeconds } = config.authFailures;
    this.perIp = limits.create({ name: 'auth-failures-ip', points: perIp, durationSeconds: windowSeconds });
    this.perUsername = limits.create({
      name: 'auth-failures-username',
      points: perUsername,
      durationSeconds: windowSeconds,
    });
    this.knownAddresses = limits.create({
      name: 'auth-known-addresses',
      points: 1,
      durationSeconds: KNOWN_ADDRESS_SECONDS,
    });
  }

  /** Takes the attempt's points, or refuses it (429) when its address, or its username from an unknown address, is over the limit. */
  async admit(attempt: LoginAttempt): Promise<void> {
    const keys = this.keys(attempt);
    const [ip, user, known] = await Promise.all([
      this.perIp.consume(keys.ip),
      keys.username === undefined ? ALLOWED : this.perUsername.consume(keys.username),
      keys.knownAddress === undefined
        ? false
        : this.knownAddresses.taken(keys.knownAddress).then((points) => points > 0),
    ]);
    if (ip.allowed && (user.allowed || known)) return;
    // The counter that admitted it keeps no point for an attempt that never ran.
    if (ip.allowed) await this.perIp.reward(keys.ip);
    if (user.allowed && keys.username !== undefined) await this.perUsername.reward(keys.username);
    const retryAfterSeconds = Math.max(
      ip.allowed ? 0 : ip.retryAfterSeconds,
      user.allowed ? 0 : user.retryAfterSeconds,
    );
    const whose = ip.allowed ? 'for this account' : 'from this address';
    throw new AccessDenied(
      429,
      `too many failed authentications ${whose}: retry in ${retryAfterSeconds} s`,
      retryAfterSeconds,
    );
  }

  /** The credentials were right: the attempt's points go back, and its address becomes known for its username. */
  async succeeded(attempt: LoginAttempt): Promise<void> {
    const keys = this.keys(attempt);
    await Promise.all([
      this.perIp.reward(keys.ip),
      keys.username === undefined ? undefined : this.perUsername.reward(keys.username),
      keys.knownAddress === undefined
        ? undefined
        : this.knownAddresses.set(keys.knownAddress, 1, KNOWN_ADDRESS_SECONDS),
    ]);
  }

  private keys(attempt: LoginAttempt): { ip: string; username?: string; knownAddress?: string } {
    const ip = clientAddressKey(attempt.ip);
    // Hashed: a username is whatever the client sent, up to the header's length.
    const username =
      attempt.username === undefined ? undefined : createHash('sha256').update(attempt.username).digest('base64url');
    return { ip, username, knownAddress: username === undefined ? undefined : `${username}@${ip}` };
  }
}

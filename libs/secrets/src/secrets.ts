import { createHash, randomBytes, scrypt, timingSafeEqual } from 'node:crypto';
import { promisify } from 'node:util';

const scryptAsync = promisify(scrypt) as (
  password: string,
  salt: Buffer,
  keylen: number,
  options: object,
) => Promise<Buffer>;

/** scrypt cost: about 50 ms per hash here, slow for guessing; callers cache successful checks in memory. */
const COST = { N: 2 ** 15, r: 8, p: 1, maxmem: 64 * 1024 * 1024 };
const KEY_LENGTH = 32;

/** A random credential: 32 lowercase hex characters, the shape of the real API's tokens and secrets. */
export function generateCredential(): string {
  return randomBytes(16).toString('hex');
}

export async function hashSecret(secret: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await scryptAsync(secret, salt, KEY_LENGTH, COST);
  return ['scrypt', COST.N, COST.r, COST.p, salt.toString('base64'), key.toString('base64')].join('$');
}

/** Constant-time comparison of the derived keys; a malformed hash simply does not verify. */
export async function verifySecret(secret: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, expected] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !expected) return false;
  const expectedKey = Buffer.from(expected, 'base64');
  const key = await scryptAsync(secret, Buffer.from(salt, 'base64'), expectedKey.length, {
    N: Number(n),
    r: Number(r),
    p: Number(p),
    maxmem: COST.maxmem,
  });
  return key.length === expectedKey.length && timingSafeEqual(key, expectedKey);
}

/**
 * A short, deliberately lossy fingerprint that finds the candidate rows for a presented secret
 * without storing anything that confirms a guess (32 bits collide across many secrets).
 */
export function secretLookupKey(secret: string): string {
  return createHash('sha256').update(secret).digest('hex').slice(0, 8);
}

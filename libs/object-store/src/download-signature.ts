import { createHmac, timingSafeEqual } from 'node:crypto';

/** Bumped if what is signed changes, so links of one scheme never verify under another. */
const SCHEME = 'download-link:v1';
const EXPIRES = /^\d{1,12}$/;
/** base64url of an HMAC-SHA256: 43 characters. */
const SIGNATURE = /^[A-Za-z0-9_-]{43}$/;

export type LinkCheck = 'valid' | 'invalid' | 'expired';

function mac(secret: string, key: string, expires: number): Buffer {
  return createHmac('sha256', secret).update(`${SCHEME}\n${key}\n${expires}`).digest();
}

/** The signature of a link to `key` valid until `expires` (Unix seconds): base64url HMAC-SHA256. */
export function signDownload(secret: string, key: string, expires: number): string {
  return mac(secret, key, expires).toString('base64url');
}

/**
 * Checks a presented link. The signature is compared in constant time and checked before the
 * expiry, so a forged link learns nothing about time; a valid one is refused from `expires` on.
 */
export function checkDownload(
  secret: string,
  key: string,
  expires: unknown,
  signature: unknown,
  nowMs: number,
): LinkCheck {
  if (typeof expires !== 'string' || !EXPIRES.test(expires)) return 'invalid';
  if (typeof signature !== 'string' || !SIGNATURE.test(signature)) return 'invalid';
  const expected = mac(secret, key, Number(expires));
  const presented = Buffer.from(signature, 'base64url');
  if (presented.length !== expected.length || !timingSafeEqual(presented, expected)) return 'invalid';
  return nowMs >= Number(expires) * 1000 ? 'expired' : 'valid';
}

import { createHash } from 'node:crypto';

// RFC 4122 namespace for this lib's job ids (a fixed random UUID): ids derived from keys never
// collide with random ones in practice, and are the same on every replica.
const KEYED_JOB_NAMESPACE = Buffer.from('5f0c2a8e7d3b4c1a9e6f2b7d8c4a1e3f', 'hex');

/**
 * The id of the job a queue holds for an idempotency key: a name-based (version 5) UUID, so
 * enqueueing the same key again, from any replica, hits the same row and creates nothing.
 */
export function keyedJobId(name: string, key: string): string {
  const hash = createHash('sha1').update(KEYED_JOB_NAMESPACE).update(`${name}\u0000${key}`).digest();
  hash[6] = (hash[6] & 0x0f) | 0x50;
  hash[8] = (hash[8] & 0x3f) | 0x80;
  const hex = hash.subarray(0, 16).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

import { ObjectStoreError, ObjectStoreErrorCode } from './object-store-error';

/**
 * One path segment: letters, digits, ".", "_", "=", "-", not starting with "." (so no ".", "..",
 * hidden or temporary names). Narrow on purpose: every key is a safe file name, a literal URL path
 * and a ClickHouse `s3()`/`file()` path with no glob characters (`*`, `?`, `{}`), and `=` allows
 * Hive-style `date=2024-01-01/` partitions.
 */
const SEGMENT = /^[A-Za-z0-9_=-][A-Za-z0-9._=-]*$/;
/** S3's own limit; a file system allows 255 bytes per name. */
const MAX_KEY_LENGTH = 1024;
const MAX_SEGMENT_LENGTH = 255;

const invalid = (what: string, value: string, why: string): ObjectStoreError =>
  new ObjectStoreError(
    ObjectStoreErrorCode.InvalidKey,
    `invalid object ${what} ${JSON.stringify(value.slice(0, 200))}: ${why}`,
  );

function checkSegments(what: string, value: string, segments: string[]): void {
  for (const segment of segments) {
    if (segment.length === 0) throw invalid(what, value, 'empty path segment (leading, trailing or doubled "/")');
    if (segment.length > MAX_SEGMENT_LENGTH)
      throw invalid(what, value, `a path segment is longer than ${MAX_SEGMENT_LENGTH} characters`);
    if (segment.startsWith('.'))
      throw invalid(what, value, 'a path segment starts with "." (no ".", ".." or hidden names)');
    if (!SEGMENT.test(segment))
      throw invalid(what, value, 'only letters, digits, ".", "_", "=" and "-" between "/" are allowed');
  }
}

/**
 * A key names one object: `/`-separated segments, relative (no leading "/"), no traversal. Returns
 * the key, or throws {@link ObjectStoreError} `invalid_key` (refusing rather than normalising, so
 * a key always means one place in the folder and in the bucket alike).
 */
export function objectKey(key: unknown): string {
  if (typeof key !== 'string' || key.length === 0)
    throw invalid('key', String(key ?? ''), 'must be a non-empty string');
  if (key.length > MAX_KEY_LENGTH) throw invalid('key', key, `longer than ${MAX_KEY_LENGTH} characters`);
  checkSegments('key', key, key.split('/'));
  return key;
}

/**
 * A prefix selects keys that start with it (S3 semantics: `a/b` matches `a/b/c` and `a/bc`).
 * Empty selects everything; a trailing "/" is allowed; the rest follows the key rules.
 */
export function objectPrefix(prefix: unknown): string {
  if (typeof prefix !== 'string') throw invalid('prefix', String(prefix), 'must be a string');
  if (prefix === '') return prefix;
  if (prefix.length > MAX_KEY_LENGTH) throw invalid('prefix', prefix, `longer than ${MAX_KEY_LENGTH} characters`);
  const segments = prefix.split('/');
  checkSegments('prefix', prefix, prefix.endsWith('/') ? segments.slice(0, -1) : segments);
  return prefix;
}

/** The key as a URL path: each segment percent-encoded (a no-op for valid keys, kept for safety). */
export function keyUrlPath(key: string): string {
  return objectKey(key).split('/').map(encodeURIComponent).join('/');
}

/** The name a downloaded file gets: the key's last segment. */
export function keyFileName(key: string): string {
  return key.slice(key.lastIndexOf('/') + 1);
}

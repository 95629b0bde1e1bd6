import { parseJson } from '@analytics/events';
import { BadBodyError } from './request-body';

/** Events as sent: a JSON array, one object, or NDJSON lines. */
export function parseEventsJson(text: string, ndjson: boolean): unknown[] {
  if (ndjson) {
    return text
      .split('\n')
      .map((line, i) => ({ line: line.trim(), number: i + 1 }))
      .filter(({ line }) => line !== '')
      .map(({ line, number }) => {
        try {
          return parseJson(line);
        } catch {
          throw new BadBodyError(`line ${number} of the NDJSON body is not valid JSON`);
        }
      });
  }
  let parsed: unknown;
  try {
    parsed = parseJson(text);
  } catch {
    throw new BadBodyError('request body is not valid JSON');
  }
  if (Array.isArray(parsed)) return parsed;
  if (typeof parsed === 'object' && parsed !== null) return [parsed];
  throw new BadBodyError('request body must be a JSON array of events');
}

/**
 * UTF-8 with one repair: the browser SDK's base64 encoder writes a character beyond U+FFFF as two
 * 3-byte surrogate halves (CESU-8, `ED A0–AF xx ED B0–BF xx`) instead of one 4-byte sequence;
 * plain decoding would turn an emoji into six U+FFFD. Each such pair becomes the real character.
 */
export function decodeUtf8RepairingSurrogates(bytes: Buffer): string {
  if (!bytes.includes(0xed)) return bytes.toString('utf8');
  const out = Buffer.allocUnsafe(bytes.length);
  let length = 0;
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i];
    if (
      b === 0xed &&
      i + 5 < bytes.length &&
      (bytes[i + 1] & 0xf0) === 0xa0 &&
      bytes[i + 3] === 0xed &&
      (bytes[i + 4] & 0xf0) === 0xb0
    ) {
      const high = 0xd800 + ((bytes[i + 1] & 0x0f) << 6) + (bytes[i + 2] & 0x3f);
      const low = 0xdc00 + ((bytes[i + 4] & 0x0f) << 6) + (bytes[i + 5] & 0x3f);
      const codePoint = 0x10000 + ((high - 0xd800) << 10) + (low - 0xdc00);
      out[length++] = 0xf0 | (codePoint >> 18);
      out[length++] = 0x80 | ((codePoint >> 12) & 0x3f);
      out[length++] = 0x80 | ((codePoint >> 6) & 0x3f);
      out[length++] = 0x80 | (codePoint & 0x3f);
      i += 5;
    } else {
      out[length++] = b;
    }
  }
  return out.toString('utf8', 0, length);
}

/**
 * The `data` field of the SDK transport: JSON text or base64 of it. A form decoder has turned the
 * `+` of unescaped base64 (as mixpanel-node sends it) into spaces: base64 has no spaces, so they go back.
 */
export function decodeDataField(data: string): unknown[] {
  const text = data.trim();
  const json =
    text.startsWith('{') || text.startsWith('[')
      ? text
      : decodeUtf8RepairingSurrogates(
          Buffer.from(text.replace(/ /g, '+').replace(/-/g, '+').replace(/_/g, '/'), 'base64'),
        );
  try {
    const parsed = parseJson(json);
    if (Array.isArray(parsed)) return parsed;
    if (typeof parsed === 'object' && parsed !== null) return [parsed];
  } catch {
    // fall through to the error below
  }
  throw new BadBodyError('data must be JSON or base64-encoded JSON of an object or an array');
}

export interface SdkRequest {
  /** The decoded records, or undefined when the request carried no `data`. */
  records: unknown[] | undefined;
  /** Query parameters and form fields together (the Python SDK sends `verbose` and `ip` in the form). */
  fields: URLSearchParams;
}

/**
 * Finds `data` wherever the SDKs put it: the query string, a form body under any content type
 * (sendBeacon labels it text/plain), or a JSON body holding the records themselves.
 */
export function readSdkRequest(query: URLSearchParams, body: Buffer, contentType: string | undefined): SdkRequest {
  const fields = new URLSearchParams(query);
  const text = body.toString('utf8');
  const trimmed = text.trimStart();
  const isJson = (contentType ?? '').includes('json') || trimmed.startsWith('[') || trimmed.startsWith('{');
  if (trimmed !== '' && isJson) {
    const records = parseEventsJson(text, false);
    const [first] = records;
    const wrapped =
      records.length === 1 &&
      typeof first === 'object' &&
      first !== null &&
      typeof (first as { data?: unknown }).data === 'string';
    return { records: wrapped ? decodeDataField((first as { data: string }).data) : records, fields };
  }
  if (trimmed !== '') new URLSearchParams(text).forEach((value, key) => fields.set(key, value));
  const data = fields.get('data');
  return { records: data === null || data === '' ? undefined : decodeDataField(data), fields };
}

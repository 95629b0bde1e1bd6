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
 * The `data` field of the SDK transport: JSON text or base64 of it. A form decoder has turned the
 * `+` of unescaped base64 (as mixpanel-node sends it) into spaces: base64 has no spaces, so they go back.
 */
export function decodeDataField(data: string): unknown[] {
  const text = data.trim();
  const json = text.startsWith('{') || text.startsWith('[') ? text : Buffer.from(text.replace(/ /g, '+').replace(/-/g, '+').replace(/_/g, '/'), 'base64').toString('utf8');
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
    const wrapped = records.length === 1 && typeof (records[0] as { data?: unknown }).data === 'string';
    return { records: wrapped ? decodeDataField((records[0] as { data: string }).data) : records, fields };
  }
  if (trimmed !== '') new URLSearchParams(text).forEach((value, key) => fields.set(key, value));
  const data = fields.get('data');
  return { records: data === null || data === '' ? undefined : decodeDataField(data), fields };
}

import { IngestError } from './ingest-errors';

export interface Reply {
  status: number;
  body: string | Buffer;
  contentType: string;
  headers?: Record<string, string>;
}

/** The status texts the /import answers carry. */
export const STATUS_TEXT: Record<number, string> = {
  200: 'OK',
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  413: 'Request Entity Too Large',
  429: 'Too Many Requests',
  503: 'Service Unavailable',
};

/** A JSON answer. */
export const jsonReply = (status: number, body: object, headers?: Record<string, string>): Reply => ({
  status,
  body: JSON.stringify(body),
  contentType: 'application/json',
  headers,
});

/** The Retry-After header of an error that carries one. */
export const retryAfterHeader = (error: IngestError) =>
  error.retryAfterSeconds ? { 'Retry-After': String(error.retryAfterSeconds) } : undefined;

/** A 1×1 transparent GIF, for `img=1` requests from <img> tags. */
const PIXEL = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64');
const CALLBACK_NAME = /^[A-Za-z_$][\w$]*(\.[A-Za-z_$][\w$]*)*$/;

export interface SdkReplyOptions {
  verbose: boolean;
  img: boolean;
  callback?: string;
}

/**
 * The SDK transport answers (/track, legacy /import, /engage, /groups): HTTP 200 with `1`/`0` or,
 * verbose, `{"error":…,"status":…}`, even on rejection, as the SDKs expect. Throttling, oversize and
 * outages keep their status codes (429, 413, 503) because the SDKs retry or split on them.
 */
export function sdkReply(
  outcome: { ok: true } | { ok: false; error: string; status?: number; retryAfterSeconds?: number },
  options: SdkReplyOptions,
): Reply {
  const status = outcome.ok ? 200 : (outcome.status ?? 200);
  const headers =
    !outcome.ok && outcome.retryAfterSeconds ? { 'Retry-After': String(outcome.retryAfterSeconds) } : undefined;
  if (options.img) return { status, body: PIXEL, contentType: 'image/gif', headers };
  const value = options.verbose
    ? JSON.stringify(outcome.ok ? { error: null, status: 1 } : { error: outcome.error, status: 0 })
    : outcome.ok
      ? '1'
      : '0';
  if (options.callback && CALLBACK_NAME.test(options.callback)) {
    return { status, body: `${options.callback}(${value});`, contentType: 'application/javascript', headers };
  }
  return { status, body: value, contentType: options.verbose ? 'application/json' : 'text/plain', headers };
}

export function sdkFailure(error: IngestError): {
  ok: false;
  error: string;
  status?: number;
  retryAfterSeconds?: number;
} {
  const keepStatus = error.status !== 400;
  return {
    ok: false,
    error: error.message,
    status: keepStatus ? error.status : undefined,
    retryAfterSeconds: error.retryAfterSeconds,
  };
}

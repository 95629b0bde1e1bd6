import { IngestError } from './ingest-errors';
import { IngestOutcome } from './ingest.service';

export interface Reply {
  status: number;
  body: string | Buffer;
  contentType: string;
  headers?: Record<string, string>;
}

const STATUS_TEXT: Record<number, string> = {
  200: 'OK',
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  413: 'Request Entity Too Large',
  429: 'Too Many Requests',
  503: 'Service Unavailable',
};

const json = (status: number, body: object, headers?: Record<string, string>): Reply => ({
  status,
  body: JSON.stringify(body),
  contentType: 'application/json',
  headers,
});

const retryAfter = (error: IngestError) => (error.retryAfterSeconds ? { 'Retry-After': String(error.retryAfterSeconds) } : undefined);

/** The strict /import answers, in the spec's error shape. */
export const importReplies = {
  outcome({ imported, failed }: IngestOutcome): Reply {
    if (!failed.length) return json(200, { code: 200, num_records_imported: imported, status: 'OK' });
    return json(400, {
      code: 400,
      error: 'some data points in the request failed validation',
      failed_records: failed,
      num_records_imported: imported,
      status: STATUS_TEXT[400],
    });
  },
  error(error: IngestError): Reply {
    return json(error.status, { code: error.status, error: error.message, num_records_imported: 0, status: STATUS_TEXT[error.status] }, retryAfter(error));
  },
};

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
export function sdkReply(outcome: { ok: true } | { ok: false; error: string; status?: number; retryAfterSeconds?: number }, options: SdkReplyOptions): Reply {
  const status = outcome.ok ? 200 : (outcome.status ?? 200);
  const headers = !outcome.ok && outcome.retryAfterSeconds ? { 'Retry-After': String(outcome.retryAfterSeconds) } : undefined;
  if (options.img) return { status, body: PIXEL, contentType: 'image/gif', headers };
  const value = options.verbose ? JSON.stringify(outcome.ok ? { error: null, status: 1 } : { error: outcome.error, status: 0 }) : outcome.ok ? '1' : '0';
  if (options.callback && CALLBACK_NAME.test(options.callback)) {
    return { status, body: `${options.callback}(${value});`, contentType: 'application/javascript', headers };
  }
  return { status, body: value, contentType: options.verbose ? 'application/json' : 'text/plain', headers };
}

export function sdkOutcome(result: IngestOutcome): { ok: true } | { ok: false; error: string } {
  if (!result.failed.length) return { ok: true };
  const [first] = result.failed;
  const more = result.failed.length > 1 ? ` (and ${result.failed.length - 1} more)` : '';
  return { ok: false, error: `event ${first.index}: ${first.message}${more}` };
}

export function sdkFailure(error: IngestError): { ok: false; error: string; status?: number; retryAfterSeconds?: number } {
  const keepStatus = error.status !== 400;
  return { ok: false, error: error.message, status: keepStatus ? error.status : undefined, retryAfterSeconds: error.retryAfterSeconds };
}

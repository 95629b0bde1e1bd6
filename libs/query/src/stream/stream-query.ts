import { dayRange, QueryParams } from '../http/query-params';
import { TimeZone } from '../time/time-zone';
import { invalidParameter } from '../query-error';

/** At most this many ids a request (each stands for its whole cluster, up to 500 ids). */
export const MAX_STREAM_IDS = 100;
export const DEFAULT_STREAM_LIMIT = 1000;
export const MAX_STREAM_LIMIT = 10_000;

/** Where a page ends: the last event's sort key (newest first), so the next page starts just past it. */
export interface StreamCursor {
  timeMs: number;
  event: string;
  /** The id the event was sent with (before identity resolution). */
  distinctId: string;
  insertId: string;
}

/** `GET /stream/query`'s parameters. */
export interface StreamQuery {
  distinctIds: string[];
  /** Days of the project's time zone, as every report's. */
  fromDay: number;
  toDay: number;
  zone: TimeZone;
  limit: number;
  cursor?: StreamCursor;
}

/** The cursor is opaque to clients: base64url of the key's JSON, so it passes in a URL as it is. */
export function encodeCursor(cursor: StreamCursor): string {
  return Buffer.from(JSON.stringify([cursor.timeMs, cursor.event, cursor.distinctId, cursor.insertId])).toString(
    'base64url',
  );
}

function decodeCursor(text: string): StreamCursor {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
  } catch {
    parsed = undefined;
  }
  if (
    !Array.isArray(parsed) ||
    parsed.length !== 4 ||
    !Number.isSafeInteger(parsed[0]) ||
    !parsed.slice(1).every((part) => typeof part === 'string')
  )
    throw invalidParameter('cursor is not one this API gave (use next_cursor from the previous page as it is)');
  const [timeMs, event, distinctId, insertId] = parsed as [number, string, string, string];
  return { timeMs, event, distinctId, insertId };
}

export function parseStreamQuery(params: QueryParams): StreamQuery {
  const distinctIds = params.stringArray('distinct_ids');
  if (!distinctIds?.length) throw invalidParameter('distinct_ids is required: a JSON array of ids, as in ["user-1"]');
  if (distinctIds.length > MAX_STREAM_IDS)
    throw invalidParameter(`distinct_ids may hold at most ${MAX_STREAM_IDS} ids, got ${distinctIds.length}`);
  const cursor = params.text('cursor');
  return {
    distinctIds: [...new Set(distinctIds)],
    ...dayRange(params),
    limit: params.integer('limit', 1, MAX_STREAM_LIMIT) ?? DEFAULT_STREAM_LIMIT,
    cursor: cursor === undefined ? undefined : decodeCursor(cursor),
  };
}

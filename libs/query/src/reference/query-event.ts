import { JsonObject } from '@analytics/expression';

/** One deduplicated event as the reference implementations read it (the SQL reads the same row from ClickHouse). */
export interface QueryEvent {
  readonly event: string;
  readonly timeMs: number;
  readonly distinctId: string;
  readonly insertId: string;
  /** The custom properties, as the stored JSON text parses. */
  readonly properties: JsonObject;
  /** The properties of the person's profile, in the reports that join profiles; undefined without one. */
  readonly user?: JsonObject;
}

/** Events by user, each user's in time order (ties by insert id, for stable runs). */
export function eventsByUser(events: readonly QueryEvent[]): Map<string, QueryEvent[]> {
  const users = new Map<string, QueryEvent[]>();
  for (const event of events) {
    const list = users.get(event.distinctId);
    if (list) list.push(event);
    else users.set(event.distinctId, [event]);
  }
  for (const list of users.values()) list.sort((a, b) => a.timeMs - b.timeMs || compareUtf8(a.insertId, b.insertId));
  return users;
}

/** Byte order of the UTF-8 encodings: how ClickHouse orders strings (JavaScript's `<` compares UTF-16 units). */
export function compareUtf8(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
}

import { eventPropertyColumn, PropertyColumnType } from './event-columns';
import { DateTime, JsonObject, JsonValue, Value } from './value';

/** What the reference evaluator reads from one row; the in-memory twin of the SQL `ExpressionScope`. */
export interface ExpressionRow {
  /** `properties["a"]["b"]…` */
  property(path: readonly string[]): Value;
  /** `user["a"]…`: undefined when no profile is joined. */
  userProperty(path: readonly string[]): Value;
  /** `event["$time"]`: undefined outside event queries. */
  readonly eventTime: DateTime | undefined;
}

/** An event in the shape raw export emits, with its time given separately. */
export interface EventRecord {
  readonly event: string;
  /** The event's time in milliseconds since the epoch; `properties.time`, if present, is not read. */
  readonly timeMs: number;
  /** The custom properties together with `distinct_id` and `$insert_id`, as in an exported event. */
  readonly properties: JsonObject;
}

export interface ProfileRecord {
  readonly $distinct_id: string;
  readonly properties: JsonObject;
}

/** An event row; `user` is the profile joined to it, if the query joins one. */
export function eventRow(event: EventRecord, user?: JsonObject): ExpressionRow {
  return {
    property(path) {
      const column = eventPropertyColumn(path[0]);
      if (column === undefined) return readJsonPath(event.properties, path);
      return path.length === 1 ? readColumn(event, path[0], column.type) : undefined;
    },
    userProperty: (path) => (user === undefined ? undefined : readJsonPath(user, path)),
    eventTime: new DateTime(event.timeMs),
  };
}

/** A profile row of the profile query: `properties[…]` and `user[…]` both read the profile. */
export function profileRow(profile: ProfileRecord): ExpressionRow {
  return {
    property: (path) => readJsonPath(profile.properties, path),
    userProperty: (path) => readJsonPath(profile.properties, path),
    eventTime: undefined,
  };
}

/** Reads a column-backed property as the column stores it: ids are always strings. */
function readColumn(event: EventRecord, name: string, type: PropertyColumnType): Value {
  if (type === 'unix-seconds') return Math.floor(event.timeMs / 1000);
  if (type === 'datetime') return new DateTime(event.timeMs);
  const value = event.properties[name];
  return typeof value === 'string' ? value : '';
}

/** Own keys only, so `__proto__` or `constructor` never reach the prototype. */
export function readJsonPath(object: JsonObject, path: readonly string[]): Value {
  let current: JsonValue = object;
  for (const key of path) {
    if (current === null || typeof current !== 'object' || Array.isArray(current) || !Object.hasOwn(current, key))
      return undefined;
    current = (current as JsonObject)[key];
  }
  return current;
}

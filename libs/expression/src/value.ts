/** A property value as it arrives in JSON. */
export type JsonValue = null | boolean | number | string | readonly JsonValue[] | JsonObject;
export interface JsonObject {
  readonly [key: string]: JsonValue;
}

/** A point in time, in whole milliseconds since the epoch (UTC), as `datetime()` and `event["$time"]` yield. */
export class DateTime {
  constructor(readonly ms: number) {}
}

/** What an expression evaluates to. Lists come from list literals and JSON arrays, objects from JSON. */
export type Value = undefined | null | boolean | number | string | DateTime | readonly Value[] | JsonObject;

/** The dynamic type of a value. The numbers are also the type tags of the compiled SQL. */
export enum Kind {
  Undefined = 0,
  Null = 1,
  Boolean = 2,
  Number = 3,
  String = 4,
  List = 5,
  Object = 6,
  DateTime = 7,
}

export function kindOf(value: Value): Kind {
  if (value === undefined) return Kind.Undefined;
  if (value === null) return Kind.Null;
  switch (typeof value) {
    case 'boolean':
      return Kind.Boolean;
    case 'number':
      return Kind.Number;
    case 'string':
      return Kind.String;
  }
  if (value instanceof DateTime) return Kind.DateTime;
  return Array.isArray(value) ? Kind.List : Kind.Object;
}

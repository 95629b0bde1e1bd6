import { Kind } from '../value';
import { and, choose, FALSE, not, or, shared, Sql, TRUE } from './sql';

/**
 * A dynamically typed value in SQL: for each kind it may have, the condition under which it has
 * that kind and a payload column holding the value then. What the compiler knows statically
 * shows: a kind that cannot occur has no entry, a certain one the condition `1`, so a value of
 * one known kind costs no test at all.
 */
export interface SqlValue {
  readonly when: Readonly<Partial<Record<Kind, Sql>>>;
  readonly boolean?: Sql; // UInt8 0/1
  readonly number?: Sql; // Float64
  readonly string?: Sql; // String
  readonly dateTime?: Sql; // Float64, whole milliseconds since the epoch
  readonly list?: SqlList;
}

/** A list, by what membership (`in`) needs: its items grouped by kind. Lists and objects in it match nothing. */
export interface SqlList {
  readonly strings?: Sql; // Array(String)
  readonly numbers?: Sql; // Array(Float64)
  readonly dateTimes?: Sql; // Array(Float64)
  readonly hasNull: Sql;
  readonly hasTrue: Sql;
  readonly hasFalse: Sql;
  readonly hasUndefined: Sql;
}

/** The condition that `value` has `kind`. */
export function is(value: SqlValue, kind: Kind): Sql {
  return value.when[kind] ?? FALSE;
}

export function both(left: SqlValue, right: SqlValue, kind: Kind): Sql {
  return and(is(left, kind), is(right, kind));
}

/** `condition AND then()`, where `then` may only be built when the condition can hold (its payloads exist). */
export function andThen(condition: Sql, then: () => Sql): Sql {
  return condition === FALSE ? FALSE : and(condition, then());
}

export function isTrue(value: SqlValue): Sql {
  return andThen(is(value, Kind.Boolean), () => value.boolean!);
}

export function booleanValue(condition: Sql): SqlValue {
  return { when: { [Kind.Boolean]: TRUE }, boolean: condition };
}

type PayloadKind = Kind.Boolean | Kind.Number | Kind.String | Kind.DateTime;
const PAYLOAD_FIELDS = {
  [Kind.Boolean]: 'boolean',
  [Kind.Number]: 'number',
  [Kind.String]: 'string',
  [Kind.DateTime]: 'dateTime',
} as const satisfies Record<PayloadKind, keyof SqlValue>;

/** One way an operation can turn out: when `guard` (the operands' kinds) holds, the result has `kind` if `valid` holds too. */
export interface Case {
  readonly guard: Sql;
  readonly kind: PayloadKind;
  readonly valid?: Sql;
  readonly payload: Sql;
}

/** A case, built only if its guard can hold; the guards of one operation's cases exclude each other. */
export function when(guard: Sql, build: () => Omit<Case, 'guard'>): Case | undefined {
  return guard === FALSE ? undefined : { guard, ...build() };
}

/** The value of an operation from its cases; it is undefined where none applies. */
export function valueOf(cases: readonly (Case | undefined)[]): SqlValue {
  const live = cases.filter((c): c is Case => c !== undefined);
  const conditions: Partial<Record<Kind, Sql>> = {};
  const value: { -readonly [K in keyof SqlValue]: SqlValue[K] } = { when: conditions };
  for (const kind of Object.keys(PAYLOAD_FIELDS).map(Number) as PayloadKind[]) {
    const ofKind = live.filter((c) => c.kind === kind);
    if (ofKind.length === 0) continue;
    conditions[kind] = shared(or(...ofKind.map((c) => and(c.guard, c.valid ?? TRUE))));
    const last = ofKind[ofKind.length - 1];
    value[PAYLOAD_FIELDS[kind]] = shared(
      choose(
        ofKind.slice(0, -1).map((c) => [c.guard, c.payload] as const),
        last.payload,
      ),
    );
  }
  const defined = or(...Object.values(conditions));
  if (defined !== TRUE) conditions[Kind.Undefined] = shared(not(defined));
  return value;
}

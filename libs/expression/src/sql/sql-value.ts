import { Kind } from '../value';
import { and, choose, FALSE, shared, Sql, sql, trusted, TRUE } from './sql';

/**
 * A dynamically typed value in SQL: a type tag (the {@link Kind} numbers, UInt8) and, per kind it
 * may have, a payload column that holds the value when the tag says so. `kinds` is what the
 * compiler knows statically, so a value of one kind costs no tag test and no unused payload.
 */
export interface SqlValue {
  readonly kinds: KindSet;
  readonly tag: Sql;
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

/** A set of kinds as a bit mask. */
export type KindSet = number;

export function kindsOf(...kinds: readonly Kind[]): KindSet {
  return kinds.reduce((set, kind) => set | (1 << kind), 0);
}

export function kindLiteral(kind: Kind): Sql {
  return trusted(String(kind));
}

/** The condition that `value` has `kind`: constant when the static kinds decide it. */
export function is(value: SqlValue, kind: Kind): Sql {
  if ((value.kinds & kindsOf(kind)) === 0) return FALSE;
  if (value.kinds === kindsOf(kind)) return TRUE;
  return sql`(${value.tag} = ${kindLiteral(kind)})`;
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

export function constantValue(kind: Kind.Undefined | Kind.Null): SqlValue {
  return { kinds: kindsOf(kind), tag: kindLiteral(kind) };
}

export function booleanValue(condition: Sql): SqlValue {
  return { kinds: kindsOf(Kind.Boolean), tag: kindLiteral(Kind.Boolean), boolean: condition };
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
  const always = live.length === 1 && live[0].guard === TRUE && (live[0].valid ?? TRUE) === TRUE;
  const tag = choose(
    live.map((c) => [and(c.guard, c.valid ?? TRUE), kindLiteral(c.kind)] as const),
    kindLiteral(Kind.Undefined),
  );
  const value: { -readonly [K in keyof SqlValue]: SqlValue[K] } = {
    kinds: kindsOf(...live.map((c) => c.kind), ...(always ? [] : [Kind.Undefined])),
    tag: shared(tag),
  };
  for (const kind of [Kind.Boolean, Kind.Number, Kind.String, Kind.DateTime] as const) {
    const ofKind = live.filter((c) => c.kind === kind);
    if (ofKind.length === 0) continue;
    const last = ofKind[ofKind.length - 1];
    const payload = choose(ofKind.slice(0, -1).map((c) => [c.guard, c.payload] as const), last.payload);
    value[PAYLOAD_FIELDS[kind]] = shared(payload);
  }
  return value;
}

import { END_DATETIME_MS, ISO_DATETIME_PATTERN, MIN_DATETIME_MS } from '../datetime';
import { ArithmeticOperator, ComparisonOperator, NUMBER_TEXT_PATTERN } from '../semantics';
import { BinaryOperator, FunctionName } from '../syntax-tree';
import { Kind } from '../value';
import { and, choose, constantString, FALSE, not, or, shared, Sql, sql, trusted } from './sql';
import { andThen, booleanValue, both, is, isTrue, SqlList, SqlValue, valueOf, when } from './sql-value';

/**
 * The typed semantics of `semantics.ts`, once more over type-tagged SQL values. Every function
 * here mirrors the one of the same name there; the agreement tests hold the two together.
 */

/** Numbers stay finite: an overflow, a division by zero or `0/0` is undefined instead. */
function isFiniteSql(number: Sql): Sql {
  return sql`isFinite(${number})`;
}

export function negate(value: SqlValue): SqlValue {
  return valueOf([when(is(value, Kind.Number), () => ({ kind: Kind.Number, payload: sql`(-${value.number!})` }))]);
}

export function logicalNot(value: SqlValue): SqlValue {
  return booleanValue(not(isTrue(value)));
}

export function binary(operator: BinaryOperator, left: SqlValue, right: SqlValue): SqlValue {
  switch (operator) {
    case 'and':
      return booleanValue(and(isTrue(left), isTrue(right)));
    case 'or':
      return booleanValue(or(isTrue(left), isTrue(right)));
    case '==':
      return booleanValue(equals(left, right));
    case '!=':
      return booleanValue(not(equals(left, right)));
    case '<':
    case '<=':
    case '>':
    case '>=':
      return compare(operator, left, right);
    case 'in':
      return contains(left, right);
    case '+':
      return add(left, right);
    default:
      return arithmetic(operator, left, right);
  }
}

function equals(left: SqlValue, right: SqlValue): Sql {
  const samePayload = (kind: Kind, field: 'boolean' | 'number' | 'string' | 'dateTime') =>
    andThen(both(left, right, kind), () => sql`(${left[field]!} = ${right[field]!})`);
  return or(
    both(left, right, Kind.Undefined),
    both(left, right, Kind.Null),
    samePayload(Kind.Boolean, 'boolean'),
    samePayload(Kind.Number, 'number'),
    samePayload(Kind.String, 'string'),
    samePayload(Kind.DateTime, 'dateTime'),
  );
}

function compare(operator: ComparisonOperator, left: SqlValue, right: SqlValue): SqlValue {
  const ordered = (kind: Kind, field: 'number' | 'string' | 'dateTime') =>
    when(both(left, right, kind), () => ({
      kind: Kind.Boolean,
      payload: sql`(${left[field]!} ${trusted(operator)} ${right[field]!})`,
    }));
  return valueOf([ordered(Kind.Number, 'number'), ordered(Kind.String, 'string'), ordered(Kind.DateTime, 'dateTime')]);
}

function add(left: SqlValue, right: SqlValue): SqlValue {
  return valueOf([
    when(both(left, right, Kind.Number), () => {
      const sum = shared(sql`(${left.number!} + ${right.number!})`);
      return { kind: Kind.Number, valid: isFiniteSql(sum), payload: sum };
    }),
    when(both(left, right, Kind.String), () => ({
      kind: Kind.String,
      payload: sql`concat(${left.string!}, ${right.string!})`,
    })),
  ]);
}

function arithmetic(operator: ArithmeticOperator, left: SqlValue, right: SqlValue): SqlValue {
  return valueOf([
    when(both(left, right, Kind.Number), () => {
      // On Float64, ClickHouse's `%` is `a - trunc(a / b) * b`, which semantics.ts copies.
      const result = shared(sql`(${left.number!} ${trusted(operator)} ${right.number!})`);
      return { kind: Kind.Number, valid: isFiniteSql(result), payload: result };
    }),
  ]);
}

/** `in`: substring of a string, or member of a list. */
function contains(needle: SqlValue, haystack: SqlValue): SqlValue {
  return valueOf([
    when(both(needle, haystack, Kind.String), () => ({
      kind: Kind.Boolean,
      payload: sql`(position(${haystack.string!}, ${needle.string!}) > 0)`,
    })),
    when(is(haystack, Kind.List), () => ({ kind: Kind.Boolean, payload: isMember(needle, haystack.list!) })),
  ]);
}

/** Membership by `==`: an item matches when it has the needle's kind and value. */
function isMember(needle: SqlValue, list: SqlList): Sql {
  const hasItem = (items: Sql | undefined, item: Sql): Sql =>
    items === undefined ? FALSE : sql`has(${items}, ${item})`;
  return or(
    andThen(is(needle, Kind.String), () => hasItem(list.strings, needle.string!)),
    andThen(is(needle, Kind.Number), () => hasItem(list.numbers, needle.number!)),
    andThen(is(needle, Kind.DateTime), () => hasItem(list.dateTimes, needle.dateTime!)),
    andThen(is(needle, Kind.Boolean), () => choose([[needle.boolean!, list.hasTrue]], list.hasFalse)),
    and(is(needle, Kind.Null), list.hasNull),
    and(is(needle, Kind.Undefined), list.hasUndefined),
  );
}

function numberFunction(apply: (number: Sql) => Sql): (value: SqlValue) => SqlValue {
  return (value) =>
    valueOf([when(is(value, Kind.Number), () => ({ kind: Kind.Number, payload: apply(value.number!) }))]);
}

/** Halves round away from zero; ClickHouse's `round` on Float64 rounds them to even. */
function roundHalfAwayFromZero(number: Sql): Sql {
  return sql`if(abs(${number} - trunc(${number})) = 0.5, trunc(${number}) + sign(${number}), round(${number}))`;
}

function toBoolean(value: SqlValue): SqlValue {
  return booleanValue(
    or(
      andThen(is(value, Kind.Boolean), () => value.boolean!),
      andThen(is(value, Kind.Number), () => sql`(${value.number!} != 0)`),
      andThen(is(value, Kind.String), () => sql`(${value.string!} NOT IN ('', 'false'))`),
      is(value, Kind.List),
      is(value, Kind.Object),
      is(value, Kind.DateTime),
    ),
  );
}

function toNumber(value: SqlValue): SqlValue {
  return valueOf([
    when(is(value, Kind.Number), () => ({ kind: Kind.Number, payload: value.number! })),
    when(is(value, Kind.Boolean), () => ({ kind: Kind.Number, payload: sql`toFloat64(${value.boolean!})` })),
    when(is(value, Kind.DateTime), () => ({ kind: Kind.Number, payload: sql`(${value.dateTime!} / 1000)` })),
    when(is(value, Kind.String), () => {
      const parsed = shared(sql`toFloat64OrZero(${value.string!})`);
      return {
        kind: Kind.Number,
        valid: and(matches(value.string!, NUMBER_TEXT_PATTERN), isFiniteSql(parsed)),
        payload: parsed,
      };
    }),
  ]);
}

export function toStringValue(value: SqlValue): SqlValue {
  const text = (kind: Kind, payload: () => Sql) =>
    when(is(value, kind), () => ({ kind: Kind.String, payload: payload() }));
  return valueOf([
    text(Kind.String, () => value.string!),
    text(Kind.Number, () => formatNumber(value.number!)),
    text(Kind.Boolean, () => sql`if(${value.boolean!}, 'true', 'false')`),
    text(Kind.Null, () => trusted("'null'")),
    text(Kind.DateTime, () => formatDateTime(value.dateTime!)),
  ]);
}

/** ClickHouse prints Float64 as JavaScript does but for the exponent sign (`1e21`, not `1e+21`); `+ 0` turns -0 into 0. */
function formatNumber(number: Sql): Sql {
  return sql`replaceRegexpOne(toString(${number} + 0), 'e([0-9])', ${constantString('e+\\1')})`;
}

function formatDateTime(ms: Sql): Sql {
  return sql`formatDateTime(fromUnixTimestamp64Milli(toInt64(${ms}), 'UTC'), '%Y-%m-%dT%H:%i:%S', 'UTC')`;
}

function toDateTime(value: SqlValue): SqlValue {
  return valueOf([
    when(is(value, Kind.DateTime), () => ({ kind: Kind.DateTime, payload: value.dateTime! })),
    when(is(value, Kind.Number), () => {
      const ms = shared(sql`floor(${value.number!} * 1000)`);
      return { kind: Kind.DateTime, valid: inDateTimeRange(ms), payload: ms };
    }),
    when(is(value, Kind.String), () => {
      const parsed = shared(sql`toUnixTimestamp64Milli(parseDateTime64BestEffortOrNull(${value.string!}, 3, 'UTC'))`);
      const ms = shared(sql`toFloat64(ifNull(${parsed}, 0))`);
      const valid = and(matches(value.string!, ISO_DATETIME_PATTERN), sql`isNotNull(${parsed})`, inDateTimeRange(ms));
      return { kind: Kind.DateTime, valid, payload: ms };
    }),
  ]);
}

function inDateTimeRange(ms: Sql): Sql {
  return sql`(${ms} >= ${trusted(String(MIN_DATETIME_MS))} AND ${ms} < ${trusted(String(END_DATETIME_MS))})`;
}

function matches(text: Sql, pattern: string): Sql {
  return sql`match(${text}, ${constantString(pattern)})`;
}

export const FUNCTIONS: Readonly<Record<FunctionName, (value: SqlValue) => SqlValue>> = {
  floor: numberFunction((number) => sql`floor(${number})`),
  ceil: numberFunction((number) => sql`ceil(${number})`),
  round: numberFunction(roundHalfAwayFromZero),
  boolean: toBoolean,
  number: toNumber,
  string: toStringValue,
  defined: (value) => booleanValue(not(is(value, Kind.Undefined))),
  datetime: toDateTime,
};

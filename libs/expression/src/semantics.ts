import { dateTimeFromIso, dateTimeFromUnixSeconds, formatDateTime } from './datetime';
import { DateTime, Kind, kindOf, Value } from './value';

/**
 * The typed semantics of the language, one function per operation, for the reference evaluator.
 * The SQL compiler implements each of these again over type-tagged SQL; the agreement tests hold
 * the two together. Decisions the contract leaves open are documented in docs/expressions.md.
 */

/** The strings `number()` accepts: decimal notation only (no whitespace, hex, Infinity or NaN). */
export const NUMBER_TEXT_PATTERN = '^[+-]?([0-9]+([.][0-9]*)?|[.][0-9]+)([eE][+-]?[0-9]+)?$';
const NUMBER_TEXT = new RegExp(NUMBER_TEXT_PATTERN);

export type ComparisonOperator = '<' | '<=' | '>' | '>=';
export type ArithmeticOperator = '-' | '*' | '/' | '%';

/** Numbers stay finite: an overflow, a division by zero or `0/0` is undefined instead. */
function finite(value: number): number | undefined {
  return Number.isFinite(value) ? value : undefined;
}

/** Conditions (`and`, `or`, `not`, a `where`) hold only for boolean `true`. */
export function isTrue(value: Value): boolean {
  return value === true;
}

/** `==`: same type and same value. undefined equals undefined, null equals null; lists and objects equal nothing. */
export function equals(left: Value, right: Value): boolean {
  const kind = kindOf(left);
  if (kind !== kindOf(right)) return false;
  switch (kind) {
    case Kind.Undefined:
    case Kind.Null:
      return true;
    case Kind.DateTime:
      return (left as DateTime).ms === (right as DateTime).ms;
    case Kind.List:
    case Kind.Object:
      return false;
    default:
      return left === right;
  }
}

/** `< <= > >=`: numbers, strings (by code point) and datetimes each among themselves; anything else is undefined. */
export function compare(operator: ComparisonOperator, left: Value, right: Value): boolean | undefined {
  const kind = kindOf(left);
  if (kind !== kindOf(right)) return undefined;
  let order: number;
  if (kind === Kind.Number) order = (left as number) - (right as number);
  else if (kind === Kind.String) order = compareCodePoints(left as string, right as string);
  else if (kind === Kind.DateTime) order = (left as DateTime).ms - (right as DateTime).ms;
  else return undefined;
  switch (operator) {
    case '<':
      return order < 0;
    case '<=':
      return order <= 0;
    case '>':
      return order > 0;
    case '>=':
      return order >= 0;
  }
}

/** Code point order, which is the byte order ClickHouse compares UTF-8 strings in (UTF-16 order is not). */
export function compareCodePoints(left: string, right: string): number {
  const length = Math.min(left.length, right.length);
  for (let i = 0; i < length; i++) {
    const a = left.charCodeAt(i);
    const b = right.charCodeAt(i);
    if (a !== b) return codePointRank(a) - codePointRank(b);
  }
  return left.length - right.length;
}

/** Surrogates start code points above U+FFFF, so they rank after U+E000–U+FFFF. */
function codePointRank(unit: number): number {
  if (unit >= 0xd800 && unit <= 0xdfff) return unit + 0x2000;
  return unit >= 0xe000 ? unit - 0x800 : unit;
}

/** `+`: adds two numbers or concatenates two strings. */
export function add(left: Value, right: Value): number | string | undefined {
  if (typeof left === 'number' && typeof right === 'number') return finite(left + right);
  if (typeof left === 'string' && typeof right === 'string') return left + right;
  return undefined;
}

export function arithmetic(operator: ArithmeticOperator, left: Value, right: Value): number | undefined {
  if (typeof left !== 'number' || typeof right !== 'number') return undefined;
  switch (operator) {
    case '-':
      return finite(left - right);
    case '*':
      return finite(left * right);
    case '/':
      return finite(left / right);
    case '%':
      return finite(remainder(left, right));
  }
}

/** Truncated remainder computed in doubles, as ClickHouse does: exact for integers up to 2^53. */
function remainder(dividend: number, divisor: number): number {
  return dividend - Math.trunc(dividend / divisor) * divisor;
}

export function negate(value: Value): number | undefined {
  return typeof value === 'number' ? -value : undefined;
}

/** `a in b`: substring of a string, or member of a list (by `==`); anything else is undefined. */
export function contains(needle: Value, haystack: Value): boolean | undefined {
  if (typeof haystack === 'string') return typeof needle === 'string' ? haystack.includes(needle) : undefined;
  if (Array.isArray(haystack)) return haystack.some((item: Value) => equals(needle, item));
  return undefined;
}

export function floor(value: Value): number | undefined {
  return typeof value === 'number' ? Math.floor(value) : undefined;
}

export function ceil(value: Value): number | undefined {
  return typeof value === 'number' ? Math.ceil(value) : undefined;
}

/** Halves round away from zero, like C's `round()` (JavaScript's `Math.round` rounds them up). */
export function round(value: Value): number | undefined {
  if (typeof value !== 'number') return undefined;
  const whole = Math.trunc(value);
  return Math.abs(value - whole) === 0.5 ? whole + Math.sign(value) : Math.round(value);
}

/** `boolean()`: false for undefined, null, false, 0, "" and "false"; true for every other value. */
export function toBoolean(value: Value): boolean {
  switch (kindOf(value)) {
    case Kind.Undefined:
    case Kind.Null:
      return false;
    case Kind.Boolean:
      return value as boolean;
    case Kind.Number:
      return value !== 0;
    case Kind.String:
      return value !== '' && value !== 'false';
    default:
      return true;
  }
}

/** `number()`: booleans are 1/0, datetimes unix seconds, strings must be decimal notation. */
export function toNumber(value: Value): number | undefined {
  switch (kindOf(value)) {
    case Kind.Number:
      return value as number;
    case Kind.Boolean:
      return value ? 1 : 0;
    case Kind.DateTime:
      return (value as DateTime).ms / 1000;
    case Kind.String:
      return NUMBER_TEXT.test(value as string) ? finite(Number(value)) : undefined;
    default:
      return undefined;
  }
}

/** `string()`, and how `on` renders segment keys. Lists, objects and undefined have no string form. */
export function toStringValue(value: Value): string | undefined {
  switch (kindOf(value)) {
    case Kind.String:
      return value as string;
    case Kind.Number:
      return formatNumber(value as number);
    case Kind.Boolean:
      return value ? 'true' : 'false';
    case Kind.Null:
      return 'null';
    case Kind.DateTime:
      return formatDateTime(value as DateTime);
    default:
      return undefined;
  }
}

/** JavaScript's shortest round-trip form (`42`, `0.1`, `1e+21`); `-0` reads `0`. */
export function formatNumber(value: number): string {
  return String(value);
}

/** `datetime()`: from unix seconds or an ISO 8601 string. */
export function toDateTime(value: Value): DateTime | undefined {
  switch (kindOf(value)) {
    case Kind.DateTime:
      return value as DateTime;
    case Kind.Number:
      return dateTimeFromUnixSeconds(value as number);
    case Kind.String:
      return dateTimeFromIso(value as string);
    default:
      return undefined;
  }
}

export function isDefined(value: Value): boolean {
  return value !== undefined;
}

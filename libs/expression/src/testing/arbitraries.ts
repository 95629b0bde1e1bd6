import fc from 'fast-check';
import { END_DATETIME_MS, MIN_DATETIME_MS } from '../datetime';
import { BinaryOperator, Expression, FUNCTION_NAMES, PropertySource } from '../syntax-tree';
import { JsonObject, JsonValue } from '../value';

/**
 * Generators for the agreement tests: expressions and events drawn from small shared pools, so
 * that equalities, memberships and casts hit often, plus free-form values for the corners.
 */

/** Names events carry; `zz` never occurs, the reserved names read columns. */
export const PROPERTY_NAMES = ['s', 'n', 'b', 'l', 'o', 'x', 'iso', 'num', '', 'é k', '__proto__', 'zz', 'time', 'distinct_id', '$insert_id'];
const NESTED_KEYS = ['k', 's', 'n'];

export const STRINGS = [
  '', 'a', 'b', 'ab', 'A', 'é', 'z', '😀', 'a\nb', '"', '\\', "'", '%', '_', '{w_0:String}',
  '1', '1.5', '-2', '+5', '.5', '5.', '1e3', '1E+2', '1e400', ' 1', '0x10', 'Infinity', 'NaN', '00012', '-0',
  'true', 'false', 'null',
  '2024-01-02', '2024-01-02T03:04:05', '2024-01-02 03:04:05.123456', '2024-02-29T10:00:00+05:30', '2024-01-02T03:04Z',
  '2023-02-29', '2024-04-31', '2024-13-01', '2024-01-02T24:00:00', '1899-12-31', '1900-01-01T00:30:00+01:00',
  '2299-12-31T23:59:59-01:00', '2299-12-31T23:59:59.999', '1970-01-01T00:00:00.0005', '2024-1-2',
];

export const NUMBERS = [
  0, 1, -1, 2, 3, 0.5, 1.5, -2.5, 2.5, 10, 100, 0.1, 0.2, 0.3, 1e21, 1e-7, 1e308, -1e308, 123456789.123,
  2 ** 53, 2 ** 53 + 2, 1e16, 1700000000, 1712000000.5, -1700000000, 5e-324, 10413791999.999, -2208988800,
];

const scalar: fc.Arbitrary<JsonValue> = fc.oneof(
  { arbitrary: fc.constantFrom(...STRINGS), weight: 4 },
  { arbitrary: fc.string({ unit: 'grapheme', maxLength: 6 }), weight: 1 },
  { arbitrary: fc.constantFrom(...NUMBERS), weight: 4 },
  { arbitrary: fc.double({ noNaN: true, noDefaultInfinity: true }), weight: 1 },
  { arbitrary: fc.integer({ min: -1000, max: 1000 }), weight: 1 },
  { arbitrary: fc.boolean(), weight: 2 },
  { arbitrary: fc.constant(null), weight: 1 },
);

function objectOf(keys: readonly string[], value: fc.Arbitrary<JsonValue>): fc.Arbitrary<JsonObject> {
  // fromEntries makes own properties even of `__proto__`.
  return fc.uniqueArray(fc.tuple(fc.constantFrom(...keys), value), { selector: ([key]) => key, maxLength: keys.length }).map(Object.fromEntries);
}

const propertyValue: fc.Arbitrary<JsonValue> = fc.oneof(
  { arbitrary: scalar, weight: 6 },
  { arbitrary: fc.array(scalar, { maxLength: 4 }), weight: 2 },
  { arbitrary: objectOf(NESTED_KEYS, scalar), weight: 1 },
);

/** An event as the agreement tests store it: columns plus custom properties; `user` is its joined profile. */
export interface GeneratedEvent {
  readonly timeMs: number;
  readonly distinctId: string;
  readonly insertId: string;
  readonly properties: JsonObject;
  readonly user: JsonObject | undefined;
}

const customNames = PROPERTY_NAMES.filter((name) => !['time', 'distinct_id', '$insert_id', 'zz'].includes(name));

export const eventArbitrary: fc.Arbitrary<GeneratedEvent> = fc.record({
  timeMs: fc.oneof(
    fc.integer({ min: 1_600_000_000_000, max: 1_800_000_000_000 }),
    fc.integer({ min: MIN_DATETIME_MS, max: END_DATETIME_MS - 1 }),
    fc.constantFrom(0, -1, -999, -1000, -1001, 1_704_164_645_678, 1_700_000_000_000),
  ),
  distinctId: fc.constantFrom('', 'u1', 'u2', 'a', '1'),
  insertId: fc.constantFrom('i1', 'i2', 'a'),
  properties: objectOf(customNames, propertyValue),
  user: fc.option(objectOf(customNames, propertyValue), { nil: undefined }),
});

const at = { start: 0, end: 0 };

const literal: fc.Arbitrary<Expression> = fc
  .oneof(fc.constantFrom(...STRINGS), fc.constantFrom(...NUMBERS.filter((n) => n >= 0)), fc.boolean(), fc.constant(null))
  .map((value) => ({ type: 'literal', value, ...at }));

const listLiteral: fc.Arbitrary<Expression> = fc.array(literal, { maxLength: 4 }).map((items) => ({ type: 'list', items, ...at }));

const property: fc.Arbitrary<Expression> = fc
  .tuple(
    fc.constantFrom<PropertySource>('properties', 'properties', 'properties', 'user'),
    fc.constantFrom(...PROPERTY_NAMES),
    fc.option(fc.constantFrom(...NESTED_KEYS), { freq: 6, nil: undefined }),
  )
  .map(([source, name, nested]) => ({ type: 'property', source, path: nested === undefined ? [name] : [name, nested], ...at }));

const leaf: fc.Arbitrary<Expression> = fc.oneof(
  { arbitrary: property, weight: 6 },
  { arbitrary: literal, weight: 3 },
  { arbitrary: listLiteral, weight: 1 },
  { arbitrary: fc.constant<Expression>({ type: 'event-time', ...at }), weight: 1 },
);

const BINARY_OPERATORS: BinaryOperator[] = ['or', 'and', '==', '!=', '<', '<=', '>', '>=', 'in', '+', '-', '*', '/', '%'];

const expressionOfDepth: fc.Memo<Expression> = fc.memo((depth) => {
  if (depth <= 1) return leaf;
  const operand = expressionOfDepth(depth - 1);
  return fc.oneof(
    { arbitrary: leaf, weight: 1 },
    {
      arbitrary: fc.tuple(fc.constantFrom(...BINARY_OPERATORS), operand, operand).map(
        ([operator, left, right]): Expression => ({ type: 'binary', operator, left, right, ...at }),
      ),
      weight: 4,
    },
    {
      arbitrary: fc.tuple(fc.constantFrom('-' as const, 'not' as const), operand).map(([operator, operand]): Expression => ({ type: 'unary', operator, operand, ...at })),
      weight: 1,
    },
    {
      arbitrary: fc.tuple(fc.constantFrom(...FUNCTION_NAMES), operand).map(([name, argument]): Expression => ({ type: 'call', name, argument, ...at })),
      weight: 2,
    },
  );
});

/** Expressions up to four levels deep over the generated events' properties. */
export const expressionArbitrary: fc.Arbitrary<Expression> = expressionOfDepth(4);

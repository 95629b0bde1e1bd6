import fc from 'fast-check';
import { BinaryOperator, Expression, FUNCTION_NAMES, FunctionName, PropertySource } from '../syntax-tree';
import { NESTED_KEYS, NUMBERS, PROPERTY_NAMES, STRINGS } from './event-arbitraries';

/** Expression generators for the agreement tests, over the events' shared pools of names and values. */
const at = { start: 0, end: 0 };

function literal(values: fc.Arbitrary<null | boolean | number | string>): fc.Arbitrary<Expression> {
  return values.map((value) => ({ type: 'literal', value, ...at }));
}

function property(names: readonly string[], nested = 0.15): fc.Arbitrary<Expression> {
  return fc
    .tuple(
      fc.constantFrom<PropertySource>('properties', 'properties', 'properties', 'user'),
      fc.constantFrom(...names),
      fc.double({ min: 0, max: 1, noNaN: true }),
      fc.constantFrom(...NESTED_KEYS),
    )
    .map(([source, name, draw, key]) => ({
      type: 'property',
      source,
      path: draw < nested ? [name, key] : [name],
      ...at,
    }));
}

function binary(
  operators: readonly BinaryOperator[],
  left: fc.Arbitrary<Expression>,
  right = left,
): fc.Arbitrary<Expression> {
  return fc
    .tuple(fc.constantFrom(...operators), left, right)
    .map(([operator, l, r]) => ({ type: 'binary', operator, left: l, right: r, ...at }));
}

function call(names: readonly FunctionName[], argument: fc.Arbitrary<Expression>): fc.Arbitrary<Expression> {
  return fc.tuple(fc.constantFrom(...names), argument).map(([name, a]) => ({ type: 'call', name, argument: a, ...at }));
}

function unary(operator: '-' | 'not', operand: fc.Arbitrary<Expression>): fc.Arbitrary<Expression> {
  return operand.map((o) => ({ type: 'unary', operator, operand: o, ...at }));
}

const anyLiteral = literal(
  fc.oneof(
    fc.constantFrom(...STRINGS),
    fc.constantFrom(...NUMBERS.filter((n) => n >= 0)),
    fc.boolean(),
    fc.constant(null),
  ),
);
const listLiteral: fc.Arbitrary<Expression> = fc
  .array(anyLiteral, { maxLength: 4 })
  .map((items) => ({ type: 'list', items, ...at }));
const eventTime = fc.constant<Expression>({ type: 'event-time', ...at });
const ARITHMETIC: BinaryOperator[] = ['+', '-', '*', '/', '%'];
const COMPARISONS: BinaryOperator[] = ['==', '!=', '<', '<=', '>', '>='];
const ALL_OPERATORS: BinaryOperator[] = ['or', 'and', ...COMPARISONS, 'in', ...ARITHMETIC];

/**
 * Expressions aimed at a kind, so that operations mostly meet operands they work on (random
 * trees would compare booleans with lists all day), plus untyped ones for every mixture.
 */
interface Generators {
  number: fc.Arbitrary<Expression>;
  text: fc.Arbitrary<Expression>;
  dateTime: fc.Arbitrary<Expression>;
  condition: fc.Arbitrary<Expression>;
  any: fc.Arbitrary<Expression>;
}

const generatorsByDepth = new Map<number, Generators>();

function generators(depth: number): Generators {
  let cached = generatorsByDepth.get(depth);
  if (cached === undefined) generatorsByDepth.set(depth, (cached = generatorsOfDepth(depth)));
  return cached;
}

function generatorsOfDepth(depth: number): Generators {
  const leaves: Generators = {
    number: fc.oneof(property(['n', 'n', 'time', 'x']), literal(fc.constantFrom(...NUMBERS.filter((n) => n >= 0)))),
    text: fc.oneof(
      property(['s', 'num', 'iso', 'distinct_id', '$insert_id', 'x']),
      literal(fc.constantFrom(...STRINGS)),
    ),
    dateTime: eventTime,
    condition: fc.oneof(property(['b', 'x']), literal(fc.boolean())),
    any: fc.oneof(
      { arbitrary: property(PROPERTY_NAMES), weight: 4 },
      { arbitrary: anyLiteral, weight: 2 },
      { arbitrary: listLiteral, weight: 1 },
      { arbitrary: eventTime, weight: 1 },
    ),
  };
  if (depth <= 1) return leaves;
  const inner = generators(depth - 1);
  const operand = fc.oneof(
    { arbitrary: inner.any, weight: 1 },
    { arbitrary: inner.number, weight: 1 },
    { arbitrary: inner.text, weight: 1 },
    { arbitrary: inner.condition, weight: 1 },
  );
  return {
    number: fc.oneof(
      leaves.number,
      binary(ARITHMETIC, inner.number),
      unary('-', inner.number),
      call(['floor', 'round', 'ceil'], inner.number),
      call(['number'], fc.oneof(inner.text, inner.dateTime, inner.any)),
    ),
    text: fc.oneof(leaves.text, binary(['+'], inner.text), call(['string'], operand)),
    dateTime: fc.oneof(leaves.dateTime, call(['datetime'], fc.oneof(inner.number, inner.text, inner.any))),
    condition: fc.oneof(
      leaves.condition,
      binary(COMPARISONS, inner.number),
      binary(COMPARISONS, inner.text),
      binary(COMPARISONS, inner.dateTime),
      binary(COMPARISONS, operand),
      binary(['and', 'or'], inner.condition),
      unary('not', inner.condition),
      binary(['in'], inner.text),
      binary(['in'], operand, fc.oneof(listLiteral, property(['l', 'l', 'x', 'o']))),
      call(['defined', 'boolean'], operand),
    ),
    any: fc.oneof(
      leaves.any,
      binary(ALL_OPERATORS, operand),
      unary('-', operand),
      unary('not', operand),
      call([...FUNCTION_NAMES], operand),
    ),
  };
}

/** Expressions up to five levels deep over the generated events' properties, of every kind. */
export const expressionArbitrary: fc.Arbitrary<Expression> = fc.oneof(
  generators(5).number,
  generators(5).text,
  generators(5).dateTime,
  generators(5).condition,
  generators(5).any,
);

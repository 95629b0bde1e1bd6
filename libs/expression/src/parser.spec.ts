import fc from 'fast-check';
import { ExpressionError, ExpressionErrorCode } from './expression-error';
import {
  MAX_EXPRESSION_LENGTH,
  MAX_EXPRESSION_NODES,
  MAX_LIST_ITEMS,
  MAX_NAME_LENGTH,
  MAX_NESTING_DEPTH,
  MAX_PROPERTY_PATH_LENGTH,
} from './limits';
import { parseExpression } from './parser';
import { Expression, printExpression } from './syntax-tree';
import { expressionArbitrary } from './testing/expression-arbitraries';

function parenthesised(source: string): string {
  return printExpression(parseExpression(source));
}

function errorOf(source: string): ExpressionError {
  try {
    parseExpression(source);
  } catch (error) {
    if (error instanceof ExpressionError) return error;
    throw error;
  }
  throw new Error(`${source.slice(0, 80)} parsed`);
}

/** The tree without source positions. */
function shape(expression: Expression): unknown {
  return JSON.parse(
    JSON.stringify(expression, (key, value: unknown) => (key === 'start' || key === 'end' ? undefined : value)),
  );
}

describe('parseExpression', () => {
  describe('precedence, loosest first: or, and, not, comparisons and in, + -, * / %, unary minus', () => {
    it.each([
      ['1 or 2 and 3', '(1 or (2 and 3))'],
      ['1 and 2 or 3', '((1 and 2) or 3)'],
      ['not 1 and 2', '((not 1) and 2)'],
      ['not 1 == 2', '(not (1 == 2))'],
      ['not not true', '(not (not true))'],
      ['1 == 2 and 3 != 4', '((1 == 2) and (3 != 4))'],
      ['"a" in "b" or 1 < 2', '(("a" in "b") or (1 < 2))'],
      ['1 + 2 == 3', '((1 + 2) == 3)'],
      ['1 + 2 * 3', '(1 + (2 * 3))'],
      ['1 - 2 - 3', '((1 - 2) - 3)'],
      ['8 / 4 % 3 * 2', '(((8 / 4) % 3) * 2)'],
      ['-1 * 2', '((-1) * 2)'],
      ['- -1', '(-(-1))'],
      ['1 - -1', '(1 - (-1))'],
      ['1 < 2 == true', '((1 < 2) == true)'],
      ['(1 + 2) * 3', '((1 + 2) * 3)'],
      ['floor(1.5) + 1', '(floor(1.5) + 1)'],
      ['not "Facebook" in properties["$referring_domain"]', '(not ("Facebook" in properties["$referring_domain"]))'],
    ])('%s reads as %s', (source, expected) => {
      expect(parenthesised(source)).toBe(expected);
    });
  });

  it('reads literals, lists, properties, paths, event time and calls', () => {
    expect(parenthesised('[1, "a", true, false, null, -2, [3]]')).toBe('[1, "a", true, false, null, (-2), [3]]');
    expect(parenthesised('[]')).toBe('[]');
    expect(parenthesised('properties["a"]["b"] + user["$email"]')).toBe('(properties["a"]["b"] + user["$email"])');
    expect(parenthesised('event["$time"] > datetime("2024-01-01")')).toBe('(event["$time"] > datetime("2024-01-01"))');
    expect(parenthesised(' defined ( properties [ "x" ] ) ')).toBe('defined(properties["x"])');
  });

  it('records where each node stands in the source', () => {
    const tree = parseExpression('not properties["a"] == (1 + floor(2))');
    expect(tree).toMatchObject({
      type: 'unary',
      start: 0,
      end: 37,
      operand: {
        type: 'binary',
        start: 4,
        end: 37,
        left: { type: 'property', start: 4, end: 19 },
        right: {
          type: 'binary',
          start: 23,
          end: 37,
          right: { type: 'call', start: 28, end: 36, argument: { start: 34, end: 35 } },
        },
      },
    });
  });

  it.each([
    ['(properties["a"] + 2', 20, '")"'],
    ['properties["a"] ==', 18, 'an expression'],
    ['properties[a]', 11, 'a property name in double quotes'],
    ['properties["a"', 14, '"]"'],
    ['properties.a', 10, '"["'],
    ['1 2', 2, 'an operator or the end of the expression'],
    ['1 & 2', 2, 'an operator or the end of the expression'],
    ['(1))', 3, 'an operator or the end of the expression'],
    ['floor(1, 2)', 7, '")"'],
    ['floor 1', 6, '"("'],
    ['event["time"]', 6, '"$time"'],
    ['foo(1)', 0, 'an expression'],
    ['TRUE', 0, 'an expression'],
    ['1 AND 2', 2, 'an operator or the end of the expression'],
    ['1 == not true', 5, 'an operand ("not …" needs parentheses here)'],
    ['-not true', 1, 'an operand ("not …" needs parentheses here)'],
    ['[properties["a"]]', 1, 'a constant list item (list items cannot read properties)'],
    ['[1 2]', 3, '"," or "]"'],
    ['', 0, 'an expression'],
  ])('refuses %j at %i, expecting %s', (source, position, expected) => {
    const error = errorOf(source);
    expect({ position: error.position, expected: error.expected, code: error.code }).toEqual({
      position,
      expected,
      code: ExpressionErrorCode.Syntax,
    });
  });

  it('names the position and what was expected in its message', () => {
    expect(errorOf('floor(properties["x"]').message).toBe('at position 21: expected ")"');
  });

  describe('limits', () => {
    function tooComplex(source: string): ExpressionError {
      const error = errorOf(source);
      expect(error.code).toBe(ExpressionErrorCode.TooComplex);
      return error;
    }

    it(`refuses more than ${MAX_EXPRESSION_LENGTH} characters before reading them`, () => {
      expect(tooComplex(`"${'a'.repeat(MAX_EXPRESSION_LENGTH)}"`)).toMatchObject({ position: MAX_EXPRESSION_LENGTH });
      expect(() => parseExpression(`"${'a'.repeat(MAX_EXPRESSION_LENGTH - 2)}"`)).not.toThrow();
    });

    it(`refuses more than ${MAX_NESTING_DEPTH} levels of parentheses, calls or operators`, () => {
      const nested = (depth: number, open: string, close: string) => `${open.repeat(depth)}1${close.repeat(depth)}`;
      expect(() => parseExpression(nested(MAX_NESTING_DEPTH - 1, '(', ')'))).not.toThrow();
      expect(tooComplex(nested(MAX_NESTING_DEPTH, '(', ')')).expected).toBe(
        `at most ${MAX_NESTING_DEPTH} levels of nesting`,
      );
      tooComplex(nested(MAX_NESTING_DEPTH, 'floor(', ')'));
      tooComplex(`${'-'.repeat(MAX_NESTING_DEPTH)}1`);
      tooComplex(`${'not '.repeat(MAX_NESTING_DEPTH)}true`);
      tooComplex(nested(MAX_NESTING_DEPTH, '[', ']'));
    });

    it('measures left-nested chains, which the parser builds without recursing', () => {
      const chain = (terms: number) => Array.from({ length: terms }, () => '1').join(' + ');
      expect(() => parseExpression(chain(MAX_NESTING_DEPTH / 2))).not.toThrow();
      expect(tooComplex(chain(MAX_NESTING_DEPTH + 1)).expected).toBe(`at most ${MAX_NESTING_DEPTH} levels of nesting`);
    });

    it(`refuses more than ${MAX_EXPRESSION_NODES} nodes, counting a list literal as one`, () => {
      const balanced = (leaves: number): string =>
        leaves === 1 ? '1' : `(${balanced(Math.floor(leaves / 2))} + ${balanced(Math.ceil(leaves / 2))})`;
      expect(tooComplex(balanced(MAX_EXPRESSION_NODES)).expected).toBe(
        `at most ${MAX_EXPRESSION_NODES} operators, values and calls`,
      );
      expect(() => parseExpression(balanced(MAX_EXPRESSION_NODES / 4))).not.toThrow();
      expect(() =>
        parseExpression(`1 in [${Array.from({ length: MAX_LIST_ITEMS }, (_, i) => i).join(',')}]`),
      ).not.toThrow();
    });

    it(`refuses lists of more than ${MAX_LIST_ITEMS} items`, () => {
      const items = Array.from({ length: MAX_LIST_ITEMS + 1 }, () => '1').join(',');
      expect(tooComplex(`[${items}]`)).toMatchObject({
        position: 1 + 2 * MAX_LIST_ITEMS,
        expected: `at most ${MAX_LIST_ITEMS} list items`,
      });
    });

    it(`refuses property names over ${MAX_NAME_LENGTH} characters and paths over ${MAX_PROPERTY_PATH_LENGTH} keys`, () => {
      expect(() => parseExpression(`properties["${'n'.repeat(MAX_NAME_LENGTH)}"]`)).not.toThrow();
      expect(tooComplex(`properties["${'n'.repeat(MAX_NAME_LENGTH + 1)}"]`)).toMatchObject({ position: 11 });
      expect(tooComplex(`properties${'["k"]'.repeat(MAX_PROPERTY_PATH_LENGTH + 1)}`)).toMatchObject({
        position: 10 + 5 * MAX_PROPERTY_PATH_LENGTH,
      });
    });
  });

  it('reads back every printed expression as the same tree', () => {
    fc.assert(
      fc.property(expressionArbitrary, (expression) => {
        expect(shape(parseExpression(printExpression(expression)))).toEqual(shape(expression));
      }),
      { numRuns: 2_000 },
    );
  });
});

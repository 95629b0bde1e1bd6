import {
  compileSegment,
  compileWhere,
  ExpressionError,
  keepsRow,
  parseExpression,
  segmentKey,
} from '@analytics/expression';
import { MAX_EXPRESSION_LENGTH, MAX_LIST_ITEMS, MAX_NESTING_DEPTH } from '../src/limits';
import { GeneratedEvent } from '../src/testing/event-arbitraries';
import { EventsTable, referenceRow, TEST_SCOPE, TEST_TABLE } from './support/events-table';

/**
 * Hostile and odd input: each expression is either refused with an ExpressionError or runs and
 * returns what the reference evaluator returns; none may cause a SQL error or touch the table.
 */
const HOSTILE_NAMES = [
  "a'; DROP TABLE expression_events; --",
  'a\\',
  "\\'",
  '{w_0:String}',
  '}{',
  '--',
  '/* x */',
  '\u0000',
  '__proto__',
  'constructor',
  '😀 é\u202e\u200b',
  '',
];

const EVENTS: GeneratedEvent[] = [
  {
    timeMs: 1_712_000_000_500,
    distinctId: "u'1",
    insertId: 'i1',
    properties: Object.fromEntries(HOSTILE_NAMES.map((name, i) => [name, i % 2 === 0 ? name : i])),
    user: { __proto__: 'p', constructor: 'c' },
  },
  {
    timeMs: 0,
    distinctId: '\\',
    insertId: '--',
    properties: {
      n: 1.7976931348623157e308,
      tiny: 5e-324,
      big: 2 ** 70,
      list: ["'", '\\', 1e21, null],
      nested: { "'": { '{p:String}': true } },
    },
    user: undefined,
  },
];

const quoted = (text: string) => JSON.stringify(text);
const deep = (depth: number) => `${'('.repeat(depth)}properties["n"]${')'.repeat(depth)}`;

/** Odd but valid: these must run, and agree with the reference evaluator. */
const ANSWERED: string[] = [
  ...HOSTILE_NAMES.map((name) => `properties[${quoted(name)}] == ${quoted(name)}`),
  ...HOSTILE_NAMES.map((name) => `string(properties[${quoted(name)}]) + ${quoted(name)}`),
  ...HOSTILE_NAMES.map((name) => `${quoted(name)} in properties["list"] or ${quoted(name)} in user[${quoted(name)}]`),
  `properties["nested"]["'"]["{p:String}"]`,
  `properties["a"] == "'; DROP TABLE ${TEST_TABLE}; --"`,
  String.raw`properties["a"] == "\\'"`,
  `properties["a"] == "\u0027) OR 1=1 --"`,
  'properties["n"] > 1e308',
  'properties["n"] * 2',
  'properties["n"] + properties["n"] == properties["n"] * 2',
  'properties["tiny"] / 2',
  'properties["tiny"] > 0',
  'properties["big"] == 1180591620717411303424',
  'string(properties["big"])',
  '123456789012345678901234567890 == properties["big"]',
  `0.${'0'.repeat(400)}1 > 0`,
  'number("NaN")',
  'number("Infinity")',
  'number("-Infinity") < 0',
  deep(MAX_NESTING_DEPTH - 1),
  `${'not '.repeat(MAX_NESTING_DEPTH - 1)}true`,
  `${'-'.repeat(MAX_NESTING_DEPTH - 1)}properties["n"]`,
  `"${'x'.repeat(MAX_EXPRESSION_LENGTH - 2)}"`,
  `properties["n"] in [${Array.from({ length: MAX_LIST_ITEMS }, (_, i) => i).join(', ')}]`,
  `properties["a"] in [${Array.from({ length: MAX_LIST_ITEMS }, (_, i) => quoted(`'${i}\\`)).join(', ')}]`,
  Array.from({ length: 240 }, (_, i) => `properties["p${i}"] == "v${i}"`).join(' or '),
  Array.from({ length: 30 }, (_, i) => `string(number(properties["p${i}"]))`).join(' + '),
];

/** Not expressions, or over a limit: these must be refused with an ExpressionError. */
const REFUSED: string[] = [
  'properties["a"] == "a" OR 1 == 1',
  'properties["a"] -- comment',
  '/* comment */ properties["a"]',
  `properties["a"]; DROP TABLE ${TEST_TABLE}`,
  '`properties`',
  "properties['a']",
  'properties["a"] == {w_0:String}',
  'properties["a"] == $1',
  '\u0000',
  '1e400',
  '-1e400',
  `1${'0'.repeat(400)}`,
  'NaN',
  'Infinity',
  '-Infinity',
  'properties["n"] == NaN',
  deep(MAX_NESTING_DEPTH),
  `${'floor('.repeat(200)}1${')'.repeat(200)}`,
  `"${'x'.repeat(MAX_EXPRESSION_LENGTH - 1)}"`,
  `properties["${'x'.repeat(MAX_EXPRESSION_LENGTH)}"]`,
  Array.from({ length: 2_000 }, () => 'properties["n"]').join(' + '),
  Array.from({ length: 150 }, (_, i) => `string(number(properties["p${i}"]))`).join(' + '),
];

function title(expression: string): string {
  const shown = JSON.stringify(expression);
  return shown.length > 70 ? `${shown.slice(0, 70)}… (${expression.length} characters)` : shown;
}

describe('hostile expressions', () => {
  let table: EventsTable;
  const rows = EVENTS.map(referenceRow);

  beforeAll(async () => {
    table = await EventsTable.create(EVENTS);
  });

  afterAll(() => table?.close());

  it.each(ANSWERED.map((expression) => [title(expression), expression]))(
    '%s runs and agrees with the reference evaluator',
    async (_, expression) => {
      const tree = parseExpression(expression);
      const where = compileWhere(tree, TEST_SCOPE, { prefix: 'w' });
      const on = compileSegment(tree, TEST_SCOPE, { prefix: 's' });
      const results = await table.query<{ kept: number; segment: string | null }>(
        `SELECT ${where.sql} AS kept, ${on.sql} AS segment FROM ${TEST_TABLE} ORDER BY id`,
        { ...where.params, ...on.params },
      );
      expect(results).toEqual(
        rows.map((row) => ({ kept: keepsRow(tree, row) ? 1 : 0, segment: segmentKey(tree, row) ?? null })),
      );
    },
  );

  it.each(REFUSED.map((expression) => [title(expression), expression]))(
    '%s is refused, naming the position',
    (_, expression) => {
      const compile = () => compileWhere(expression, TEST_SCOPE, { prefix: 'w' });
      expect(compile).toThrow(ExpressionError);
      expect(compile).toThrow(/^at position \d+: expected .+/);
    },
  );

  it('leaves the table as it was', async () => {
    expect(await table.query(`SELECT toUInt32(count()) AS rows FROM ${TEST_TABLE}`)).toEqual([{ rows: EVENTS.length }]);
  });
});

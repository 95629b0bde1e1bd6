import fc from 'fast-check';
import {
  compileSegment,
  compileWhere,
  Expression,
  keepsRow,
  parseExpression,
  printExpression,
  segmentKey,
} from '@analytics/expression';
import { ExpressionRow } from '../src/expression-row';
import { eventArbitrary, GeneratedEvent } from '../src/testing/event-arbitraries';
import { expressionArbitrary } from '../src/testing/expression-arbitraries';
import { EventsTable, referenceRow, TEST_SCOPE, TEST_TABLE } from './support/events-table';

/**
 * The compiled SQL must keep exactly the rows the reference evaluator keeps, and put them in the
 * same segments. Generated events sit in one chDB table; each generated batch of expressions is
 * one query returning, per row, every expression's `where` and `on` result.
 * Replay a failure with EXPRESSION_SEED=<the seed printed>; soak with EXPRESSION_BATCHES=<many>.
 */
const SEED = Number(process.env.EXPRESSION_SEED ?? Math.floor(Math.random() * 2 ** 31));
const EVENTS = 300;
const BATCHES = Number(process.env.EXPRESSION_BATCHES ?? 60);
const MAX_BATCH = 40;
const MIN_CASES = 10_000;

describe(`compiled SQL and the reference evaluator (EXPRESSION_SEED=${SEED})`, () => {
  let events: GeneratedEvent[];
  let rows: ExpressionRow[];
  let table: EventsTable;

  beforeAll(async () => {
    events = fc.sample(eventArbitrary, { numRuns: EVENTS, seed: SEED });
    rows = events.map(referenceRow);
    table = await EventsTable.create(events);
  });

  afterAll(() => table?.close());

  it('agree on every generated expression and event', async () => {
    let cases = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(expressionArbitrary, { minLength: 1, maxLength: MAX_BATCH, size: 'max' }),
        async (expressions) => {
          const problems = await disagreements(expressions);
          cases += expressions.length * events.length * 2;
          if (problems.length > 0) throw new Error(`EXPRESSION_SEED=${SEED}\n${problems.slice(0, 5).join('\n\n')}`);
        },
      ),
      { seed: SEED, numRuns: BATCHES },
    );
    expect(cases).toBeGreaterThanOrEqual(MIN_CASES);
  });

  async function disagreements(expressions: readonly Expression[]): Promise<string[]> {
    // Through the printer and the parser, which must give the tree back.
    const trees = expressions.map((expression) => parseExpression(printExpression(expression)));
    const compiled = trees.map((tree, i) => ({
      where: compileWhere(tree, TEST_SCOPE, { prefix: `w${i}` }),
      on: compileSegment(tree, TEST_SCOPE, { prefix: `s${i}` }),
    }));
    const columns = compiled.flatMap(({ where, on }, i) => [`${where.sql} AS where_${i}`, `${on.sql} AS on_${i}`]);
    const params = Object.assign({}, ...compiled.flatMap(({ where, on }) => [where.params, on.params]));
    const query = `SELECT id, ${columns.join(', ')} FROM ${TEST_TABLE} ORDER BY id`;
    let results: Record<string, number | string | null>[];
    try {
      results = await table.query(query, params);
    } catch (error) {
      return [`SQL error ${(error as Error).message}\nfor ${trees.map(printExpression).join('\n')}`];
    }
    const problems: string[] = [];
    trees.forEach((tree, i) => {
      results.forEach((result, row) => {
        const keeps = keepsRow(tree, rows[row]);
        const segment = segmentKey(tree, rows[row]) ?? null;
        if ((result[`where_${i}`] === 1) !== keeps || result[`on_${i}`] !== segment) {
          problems.push(
            `${printExpression(tree)}\non ${JSON.stringify(events[row])}\n` +
              `reference: where ${keeps}, on ${JSON.stringify(segment)}; SQL: where ${result[`where_${i}`]}, on ${JSON.stringify(result[`on_${i}`])}\n` +
              `where SQL: ${compiled[i].where.sql}\non SQL: ${compiled[i].on.sql}\nparams: ${JSON.stringify({ ...compiled[i].where.params, ...compiled[i].on.params })}`,
          );
        }
      });
    });
    return problems;
  }
});

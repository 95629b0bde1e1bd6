import fc from 'fast-check';
import { ExpressionError, ExpressionErrorCode } from '../expression-error';
import { Expression } from '../syntax-tree';
import { compileSegment, compileWhere } from './compile';
import { eventsScope, profilesScope } from './expression-scope';

const EVENTS = eventsScope();

describe('compileWhere / compileSegment', () => {
  it('names parameters and aliases after the prefix, so expressions combine in one query', () => {
    const where = compileWhere('properties["a"] == "x" or properties["a"] == "y"', EVENTS, { prefix: 'f1' });
    expect(Object.keys(where.params)).toEqual(['f1_0', 'f1_1', 'f1_2']);
    expect(where.params).toEqual({ f1_0: 'a', f1_1: 'x', f1_2: 'y' });
    expect(where.sql).toContain('AS f1_v0)');
    expect(
      where.sql.match(/[a-z0-9]+_v[0-9]+|\{[a-z0-9_]+:/gi)?.every((name) => /^(f1_v\d+|\{f1_\d+:)$/.test(name)),
    ).toBe(true);
  });

  it('carries numbers as exact decimal text', () => {
    expect(compileWhere('properties["n"] in [1, 2.5, 1e21, 9007199254740993]', EVENTS, { prefix: 'p' }).params).toEqual(
      {
        p_0: 'n',
        p_1: '[1,2.5,1e+21,9007199254740992]',
      },
    );
    expect(compileWhere('properties["n"] > 0.1', EVENTS, { prefix: 'p' }).params.p_1).toBe('0.1');
  });

  it('refuses a prefix that could collide with another or break out of a name', () => {
    for (const prefix of ['', 'a_b', '1a', 'a-b', 'a b', 'x'.repeat(33)]) {
      expect(() => compileWhere('true', EVENTS, { prefix })).toThrow(/prefix/);
    }
  });

  it('never writes user text into the SQL, whatever the literal or property name', () => {
    const marked = fc.string({ unit: 'binary', maxLength: 20 }).map((text) => `zq${text}`);
    fc.assert(
      fc.property(marked, marked, fc.double({ noNaN: true, noDefaultInfinity: true }), (name, text, number) => {
        const literal = (value: string | number): Expression => ({ type: 'literal', value, start: 0, end: 0 });
        const property: Expression = { type: 'property', source: 'properties', path: [name, text], start: 0, end: 0 };
        const tree: Expression = {
          type: 'binary',
          operator: 'or',
          left: { type: 'binary', operator: '==', left: property, right: literal(text), start: 0, end: 0 },
          right: { type: 'binary', operator: '>', left: property, right: literal(number), start: 0, end: 0 },
          start: 0,
          end: 0,
        };
        const { sql, params } = compileWhere(tree, EVENTS, { prefix: 'w' });
        expect(sql).not.toContain('zq');
        expect(Object.values(params)).toEqual(expect.arrayContaining([name, text, String(number)]));
      }),
    );
  });

  it('folds constants with the reference evaluator and sends no unused parameter', () => {
    expect(compileWhere('1 + 1 == 2 and "a" in ["a", "b"]', EVENTS, { prefix: 'c' })).toEqual({
      sql: '(1)',
      params: {},
    });
    expect(compileWhere('string(properties["x"])', EVENTS, { prefix: 'c' })).toEqual({ sql: '(0)', params: {} });
    expect(compileSegment('1 / 0', EVENTS, { prefix: 'c' })).toEqual({
      sql: '(CAST(NULL AS Nullable(String)))',
      params: {},
    });
    expect(compileSegment('"a" + "b"', EVENTS, { prefix: 'c' })).toEqual({
      sql: '({c_0:String})',
      params: { c_0: 'ab' },
    });
  });

  it('reads a property used twice once', () => {
    const { sql } = compileWhere('properties["n"] > 1 and properties["n"] < 5', EVENTS, { prefix: 'w' });
    expect(sql.match(/JSONExtractRaw/g)).toHaveLength(1);
  });

  it('reads the events table columns for time, distinct_id and $insert_id, qualified by the table alias', () => {
    const scope = eventsScope({ table: 'e' });
    expect(compileSegment('properties["distinct_id"] + properties["$insert_id"]', scope, { prefix: 'w' }).sql).toBe(
      '(concat(e.distinct_id, e.insert_id))',
    );
    expect(compileWhere('properties["time"] > 0', scope, { prefix: 'w' }).sql).toContain(
      'floor(toUnixTimestamp64Milli(e.time) / 1000)',
    );
    expect(compileWhere('properties["$insert_id"]["x"] == null', scope, { prefix: 'w' })).toEqual({
      sql: '(0)',
      params: {},
    });
    expect(() => eventsScope({ table: 'e; DROP' })).toThrow(/alias/);
  });

  it('refuses what the scope cannot read, at its position', () => {
    const error = (expression: string, scope = EVENTS) => {
      try {
        compileWhere(expression, scope, { prefix: 'w' });
      } catch (thrown) {
        return thrown as ExpressionError;
      }
      throw new Error(`${expression} compiled`);
    };
    expect(error('1 == user["plan"]')).toMatchObject({
      position: 5,
      code: ExpressionErrorCode.Unavailable,
      message: 'at position 5: expected an event property (no user profile is joined in this query)',
    });
    expect(error('event["$time"] > 0', profilesScope())).toMatchObject({
      position: 0,
      code: ExpressionErrorCode.Unavailable,
    });
    expect(error('(1')).toMatchObject({ position: 2, code: ExpressionErrorCode.Syntax });
  });

  it('reads profiles through both properties and user in the profile query', () => {
    const { sql } = compileWhere('properties["a"] == user["a"]', profilesScope('pr.properties'), { prefix: 'w' });
    expect(sql.match(/JSONExtractRaw\(pr\.properties/g)).toHaveLength(2);
  });
});

import { compileWhere, eventRow, eventsScope, ExpressionError, keepsRow, parseExpression } from '@analytics/expression';

describe('@analytics/expression', () => {
  it('parses, evaluates and compiles through its one public entry point', () => {
    const where = parseExpression('properties["plan"] == "pro"');
    expect(keepsRow(where, eventRow({ event: 'e', timeMs: 0, properties: { plan: 'pro' } }))).toBe(true);
    expect(compileWhere(where, eventsScope(), { prefix: 'w' }).params).toEqual({ w_0: 'plan', w_1: 'pro' });
    expect(() => parseExpression('(')).toThrow(ExpressionError);
  });
});

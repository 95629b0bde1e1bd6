import fc from 'fast-check';
import { evaluate } from './evaluator';
import { eventArbitrary, expressionArbitrary } from './testing/arbitraries';
import { referenceRow } from './testing/events-table';
import { kindOf, Kind } from './value';
import { printExpression } from './syntax-tree';

it('stats', () => {
  const events = fc.sample(eventArbitrary, { numRuns: 300, seed: 1 }).map(referenceRow);
  const exprs = fc.sample(expressionArbitrary, { numRuns: 2000, seed: 2 });
  const kinds = new Map<string, number>();
  const byTop = new Map<string, [number, number]>();
  for (const e of exprs) {
    const top = e.type === 'call' ? e.name : e.type === 'binary' ? e.operator : e.type;
    for (const row of events) {
      const v = evaluate(e, row);
      const k = Kind[kindOf(v)];
      kinds.set(k, (kinds.get(k) ?? 0) + 1);
      const s = byTop.get(top) ?? [0, 0];
      s[0]++;
      if (v !== undefined) s[1]++;
      byTop.set(top, s);
    }
  }
  console.log(JSON.stringify([...kinds]), JSON.stringify([...byTop].map(([k, [a, b]]) => [k, a, (b / a).toFixed(2)])));
  console.log(exprs.slice(0, 15).map(printExpression).join('\n'));
});

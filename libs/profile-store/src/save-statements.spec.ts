import { projectScope } from '@analytics/tenancy';
import { SAVE_STATEMENT_CHARS, statementsOf } from './save-statements';

const profile = (id: string, text: string) => ({ groupKey: '', profileId: id, properties: { text }, stamps: {} });

describe('statementsOf', () => {
  it('groups rows into statements of at most SAVE_STATEMENT_CHARS, in order; a larger row goes alone', () => {
    const quarter = 'x'.repeat(SAVE_STATEMENT_CHARS / 4);
    const rows = [
      profile('a', quarter),
      profile('b', quarter),
      profile('c', quarter),
      profile('d', quarter),
      profile('e', 'x'.repeat(SAVE_STATEMENT_CHARS)),
      profile('f', 'small'),
    ];
    const statements = statementsOf([
      { scope: projectScope(1), rows: rows.slice(0, 2) },
      { scope: projectScope(2), rows: rows.slice(2) },
    ]);
    expect(statements.map((rows) => rows.map((row) => JSON.parse(row).profile_id))).toEqual([
      ['a', 'b', 'c'],
      ['d'],
      ['e'],
      ['f'],
    ]);
    expect(statements.flat().map((row) => JSON.parse(row).project_id)).toEqual([1, 1, 2, 2, 2, 2]);
    expect(statementsOf([])).toEqual([]);
  });
});

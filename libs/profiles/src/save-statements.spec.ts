import { SAVE_STATEMENT_CHARS, statementsOf } from './save-statements';

const profile = (id: string, text: string) => ({ projectId: 1, groupKey: '', profileId: id, properties: { text }, stamps: {} });

describe('statementsOf', () => {
  it('groups rows into statements of at most SAVE_STATEMENT_CHARS, in order; a larger row goes alone', () => {
    const quarter = 'x'.repeat(SAVE_STATEMENT_CHARS / 4);
    const statements = statementsOf([profile('a', quarter), profile('b', quarter), profile('c', quarter), profile('d', quarter), profile('e', 'x'.repeat(SAVE_STATEMENT_CHARS)), profile('f', 'small')]);
    expect(statements.map((rows) => rows.map((row) => JSON.parse(row).profile_id))).toEqual([['a', 'b', 'c'], ['d'], ['e'], ['f']]);
    expect(statementsOf([])).toEqual([]);
  });
});

import { join } from 'node:path';
import { REPO_ROOT } from './cruise-imports';
import { handWrittenPredicates } from './tenancy-checks';

/**
 * No lib writes the tenant predicate by hand: `project_id =` / `project_id IN` / `project_id in (`
 * in SQL text (strings and templates of libs' src, not specs or migrations) is the scope's, written
 * by `chSql` and `pgSql` (libs/tenancy) from a ProjectScope.
 */
const FIXTURES = join(__dirname, 'tenancy-fixtures');

describe('tenant predicates', () => {
  it('written by hand are found in SQL text, in any case and on any alias, in the fixture tree', () => {
    expect(handWrittenPredicates(FIXTURES)).toEqual([
      'libs/rogue/src/hand-written.repository.ts:4: project_id = {project:UInt32}',
      'libs/rogue/src/hand-written.repository.ts:6: PROJECT_ID in (',
      'libs/rogue/src/hand-written.repository.ts:9: project_id=a.project_id',
    ]);
  });

  it('are written only by the SQL tags, in the repository', () => {
    expect(handWrittenPredicates(REPO_ROOT)).toEqual([]);
  });
});

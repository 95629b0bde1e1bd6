import { renderedSqlDrift } from './rendered-sql-tree';

describe('committed rendered SQL', () => {
  it('is what the builders render now', () => {
    const drift = renderedSqlDrift();
    if (drift.length)
      throw new Error(
        `rendered SQL changed: run npm run sql:render and commit the .sql files\n${drift.map((file) => `  ${file}`).join('\n')}`,
      );
  });
});

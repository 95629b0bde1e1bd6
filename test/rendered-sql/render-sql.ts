import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { committedSqlFiles, REPO_ROOT, renderedSqlTree } from './rendered-sql-tree';

/**
 * `npm run sql:render`: writes libs/<lib>/sql/*.sql from the builders in rendered-sql-files.ts and
 * removes the ones no builder renders any more. Run after changing a query; commit the files.
 */
function main(): void {
  const tree = renderedSqlTree();
  for (const file of committedSqlFiles()) if (!tree.has(file)) rmSync(join(REPO_ROOT, file));
  for (const [file, text] of tree) {
    mkdirSync(dirname(join(REPO_ROOT, file)), { recursive: true });
    writeFileSync(join(REPO_ROOT, file), text);
  }
  console.log(`rendered ${tree.size} .sql files`);
}

main();

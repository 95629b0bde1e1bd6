import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { renderedSqlText } from './rendered-query';
import { RENDERED_SQL_FILES } from './rendered-sql-files';

/** The repository root: the first folder up with a package.json (from test/ in jest, from dist/test/ in the script). */
function repoRoot(from: string): string {
  return existsSync(join(from, 'package.json')) || dirname(from) === from ? from : repoRoot(dirname(from));
}

export const REPO_ROOT = repoRoot(__dirname);

/** Every file the table names, with the text it should hold. */
export function renderedSqlTree(): Map<string, string> {
  return new Map(RENDERED_SQL_FILES.map((entry) => [entry.file, renderedSqlText(entry)]));
}

/** The .sql files committed under libs/<lib>/sql/, relative to the repository root. */
export function committedSqlFiles(root = REPO_ROOT): string[] {
  return readdirSync(join(root, 'libs'), { withFileTypes: true })
    .filter((lib) => lib.isDirectory() && existsSync(join(root, 'libs', lib.name, 'sql')))
    .flatMap((lib) =>
      readdirSync(join(root, 'libs', lib.name, 'sql'))
        .filter((name) => name.endsWith('.sql'))
        .map((name) => `libs/${lib.name}/sql/${name}`),
    );
}

/** The files that differ from their rendering, are missing, or are no longer rendered (stale). */
export function renderedSqlDrift(root = REPO_ROOT): string[] {
  const tree = renderedSqlTree();
  const changed = [...tree]
    .filter(([file, text]) => !existsSync(join(root, file)) || readFileSync(join(root, file), 'utf8') !== text)
    .map(([file]) => file);
  const stale = committedSqlFiles(root).filter((file) => !tree.has(file));
  return [...changed, ...stale.map((file) => `${file} (no builder renders it)`)];
}

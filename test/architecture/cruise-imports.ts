import type { ICruiseResult, IViolation } from 'dependency-cruiser';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

export const REPO_ROOT = join(__dirname, '../..');
export const CONFIG_FILE = join(REPO_ROOT, '.dependency-cruiser.cjs');

/**
 * dependency-cruiser ships as ES modules only, and the test transform turns `import()` into
 * `require()`; a Function body is left alone, so this stays a real dynamic import. Its source is made
 * unique: V8 reuses a compiled Function of the same source, with the import hook of the test
 * file that compiled it first, and that file's Jest environment is gone by the time a later one in the
 * same worker imports.
 */
const importModule = new Function('specifier', `return import(specifier); // ${Math.random()}`) as <T>(
  specifier: string,
) => Promise<T>;

/** One violation as `rule: from → to`, the way the check's text output names it. */
export function describeViolation(violation: IViolation): string {
  return `${violation.rule.name}: ${violation.from} → ${violation.to}`;
}

/**
 * Cruises the top-level folders of `root` (those of apps, libs, bench, test that exist) with the
 * project's rules, resolving `@analytics/*` through `root`'s tsconfig.json, as `npm run
 * lint:imports` does for the repository.
 */
export async function cruiseImports(root: string): Promise<IViolation[]> {
  return (await cruise(root)).summary.violations;
}

/** The whole report of the cruise (`depcruise --output-type json`): every module and its dependencies. */
export function cruiseModules(root: string): Promise<ICruiseResult> {
  return cruise(root);
}

async function cruise(root: string): Promise<ICruiseResult> {
  const { cruise: run } = await importModule<typeof import('dependency-cruiser')>('dependency-cruiser');
  const { default: extractDepcruiseOptions } = await importModule<
    typeof import('dependency-cruiser/config-utl/extract-depcruise-options')
  >('dependency-cruiser/config-utl/extract-depcruise-options');
  const { default: extractTSConfig } = await importModule<
    typeof import('dependency-cruiser/config-utl/extract-ts-config')
  >('dependency-cruiser/config-utl/extract-ts-config');
  const options = await extractDepcruiseOptions(CONFIG_FILE);
  const tsConfig = join(root, 'tsconfig.json');
  const folders = ['apps', 'libs', 'bench', 'test'].filter((folder) => existsSync(join(root, folder)));
  const { output } = await run(
    folders,
    { ...options, baseDir: root, tsConfig: { fileName: tsConfig }, validate: true },
    {},
    { tsConfig: extractTSConfig(tsConfig) },
  );
  return output as ICruiseResult;
}

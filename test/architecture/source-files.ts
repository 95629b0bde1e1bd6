import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

const SPEC = /\.(spec|int-spec|e2e-spec|fault-spec|fuzz-spec)\.ts$/;

function walk(root: string, dir: string): string[] {
  return readdirSync(join(root, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory()) return walk(root, path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts') && !SPEC.test(entry.name) ? [path] : [];
  });
}

/** `libs/<lib>/src/**` and `apps/<app>/src/**` under `root`, relative to it, specs left out, sorted. */
export function sourceFiles(root: string): string[] {
  return ['libs', 'apps']
    .flatMap((top) =>
      readdirSync(join(root, top), { withFileTypes: true })
        .filter((entry) => entry.isDirectory())
        .map((entry) => `${top}/${entry.name}/src`),
    )
    .filter((src) => existsSync(join(root, src)))
    .flatMap((src) => walk(root, src))
    .sort();
}

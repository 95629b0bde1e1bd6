import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** The platform's version (its package.json), from the sources or from dist/; "unknown" when neither is found. */
export function appVersion(): string {
  for (let folder = __dirname; folder !== dirname(folder); folder = dirname(folder)) {
    const path = join(folder, 'package.json');
    if (!existsSync(path)) continue;
    const { name, version } = JSON.parse(readFileSync(path, 'utf8')) as { name?: string; version?: string };
    if (name === 'analytics-platform' && version) return version;
  }
  return 'unknown';
}

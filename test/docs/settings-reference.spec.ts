import { environmentVariableNames } from '@analytics/config';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';

/** docs/settings.md has a row for every variable the configuration reads, and none it does not. */
describe('docs/settings.md', () => {
  it('documents exactly the environment variables the configuration reads', () => {
    const doc = readFileSync(resolve(__dirname, '../../docs/settings.md'), 'utf8');
    const rows = [...doc.matchAll(/^\| `([A-Z][A-Z0-9_]*)` \|/gm)].map((m) => m[1]);
    expect([...rows].sort()).toEqual(environmentVariableNames());
  });
});

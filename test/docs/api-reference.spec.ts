import { ROLE_MATRIX } from '@analytics/auth';
import { publicHostsOf } from '@analytics/service-map';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';

const API_DOC = readFileSync(resolve(__dirname, '../../docs/api.md'), 'utf8');

/** A route as the reference writes it: `GET /api/app/projects/{projectId}`. */
const written = (method: string, path: string) => `\`${method} ${path.replace(/:(\w+)/g, '{$1}').replace('*key', '{key}')}\``;

/** The table row of docs/api.md that names this endpoint, split into cells. */
function rowOf(endpoint: string): string[] | undefined {
  const line = API_DOC.split('\n').find((l) => l.startsWith('|') && l.includes(endpoint));
  return line?.split('|').map((cell) => cell.trim());
}

/** docs/api.md lists every endpoint of the role matrix with the hosts and service that serve it. */
describe('docs/api.md', () => {
  it.each(ROLE_MATRIX.map((r) => [written(r.method, r.path), r] as const))('lists %s', (endpoint, route) => {
    const cells = rowOf(endpoint);
    expect(cells).toBeDefined();
    if (route.scheme === 'public') return;
    const [, , served] = cells!;
    for (const host of publicHostsOf(route.path)) expect(served).toContain(`\`${host}.\``);
    expect(served).toMatch(new RegExp(`→ ${route.service}$`));
  });
});

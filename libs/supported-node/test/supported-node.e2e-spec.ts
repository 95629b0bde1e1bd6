import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join, resolve } from 'node:path';
import { REQUIRED_NODE_MAJOR } from '../src/supported-node';

const ROOT = resolve(__dirname, '../../..');

/** A `node` on this machine older than the required major (the system Node 20), outside node_modules. */
function olderNode(): string | undefined {
  const candidates = [
    ...(process.env.PATH ?? '')
      .split(delimiter)
      .filter((dir) => !dir.includes('node_modules'))
      .map((dir) => join(dir, 'node')),
    '/usr/bin/node',
    '/usr/local/bin/node',
  ];
  for (const binary of candidates) {
    if (!existsSync(binary)) continue;
    const version = execFileSync(binary, ['-v'], { encoding: 'utf8' }).trim();
    if (Number(/^v(\d+)\./.exec(version)?.[1]) < REQUIRED_NODE_MAJOR) return binary;
  }
  return undefined;
}

/** Every built entry point: the standalone (issue 34 saw it start and then answer 500), each other app's main, the admin's dlq-replay. */
const ENTRY_POINTS = [
  'dist/apps/standalone/src/main.js',
  ...readdirSync(join(ROOT, 'apps'))
    .filter((app) => app !== 'standalone')
    .map((app) => `dist/apps/${app}/src/main.js`),
  'dist/apps/admin/src/dlq-replay.js',
];

describe('an app started with an older Node', () => {
  const node = olderNode();
  const run = node ? it : it.skip;

  const dataDir = mkdtempSync(join(tmpdir(), 'supported-node-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  run(
    `refuses in one line naming Node ${REQUIRED_NODE_MAJOR}, exit 1 (skipped only when no Node older than ${REQUIRED_NODE_MAJOR} is on the machine)`,
    () => {
      const version = execFileSync(node!, ['-v'], { encoding: 'utf8' }).trim();
      const binary = realpathSync(node!);
      for (const entry of ENTRY_POINTS) {
        // What the standalone needs to start is given, so that without the check it would start (and be killed here).
        const env = {
          PATH: process.env.PATH ?? '',
          HOME: process.env.HOME ?? '',
          PORT: '0',
          HOST: '127.0.0.1',
          DATA_DIR: dataDir,
        };
        const result = spawnSync(node!, [join(ROOT, entry)], { cwd: ROOT, env, encoding: 'utf8', timeout: 30_000 });
        expect({ entry, status: result.status, stdout: result.stdout, stderr: result.stderr }).toEqual({
          entry,
          status: 1,
          stdout: '',
          stderr: `This platform needs Node.js ${REQUIRED_NODE_MAJOR} or later, but was started with Node.js ${version} at ${binary} (it lacks JSON.rawJSON and JSON.isRawJSON): run it through npm (npm start), or with node_modules/.bin/node.\n`,
        });
      }
    },
  );
});

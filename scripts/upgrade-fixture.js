'use strict';
// Builds the upgrade fixture: a data directory written by a previous release's standalone.
//   npm run upgrade:fixture [-- <git ref, default v0.1.0>]
// Checks the release out in a temporary git worktree, builds it with this checkout's node_modules,
// starts its standalone (chDB, PGlite and the local object store under a temporary DATA_DIR), seeds it
// over HTTP (scripts/upgrade-fixture-seed.js), stops it, and writes test/fixtures/upgrade/<ref>.tar.br
// with <ref>.json, what was seeded. No network, no Docker. test/upgrade/upgrade.e2e-spec.ts reads both.
const fs = require('node:fs');
const net = require('node:net');
const os = require('node:os');
const path = require('node:path');
const zlib = require('node:zlib');
const { execFileSync, spawn } = require('node:child_process');
const { CREDENTIALS, seed } = require('./upgrade-fixture-seed');

const REPO_ROOT = path.resolve(__dirname, '..');
const OUT_DIR = path.join(REPO_ROOT, 'test/fixtures/upgrade');
const GENEROUS_LIMITS = {
  QUERY_LIMIT_PER_SECOND: '1000',
  QUERY_LIMIT_PER_HOUR: '100000',
  EXPORT_LIMIT_PER_SECOND: '1000',
  EXPORT_LIMIT_PER_HOUR: '100000',
};

const git = (...args) => execFileSync('git', ['-C', REPO_ROOT, ...args], { encoding: 'utf8' }).trim();

function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

/** Starts the release's standalone on `dataDir`; resolves once /readyz answers 200. */
async function startStandalone(source, dataDir, port) {
  const child = spawn(process.execPath, [path.join(source, 'dist/apps/standalone/src/main.js')], {
    cwd: source,
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      DATA_DIR: dataDir,
      HOST: '127.0.0.1',
      PORT: String(port),
      LOG_LEVEL: 'warn',
      SHUTDOWN_TIMEOUT_MS: '60000',
      // Many reads in a few seconds: far above the API's per-project query and export limits.
      ...GENEROUS_LIMITS,
      // The seeded pipeline's (unused) destination is on loopback.
      OUTBOUND_ALLOWED_NETWORKS: '127.0.0.0/8',
      BOOTSTRAP_PROJECT_TOKEN: CREDENTIALS.projectToken,
      BOOTSTRAP_PROJECT_SECRET: CREDENTIALS.projectSecret,
      BOOTSTRAP_SERVICE_ACCOUNT_USERNAME: CREDENTIALS.ownerUsername,
      BOOTSTRAP_SERVICE_ACCOUNT_SECRET: CREDENTIALS.ownerSecret,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  const exited = new Promise((resolve) => child.once('exit', (code) => resolve(code)));
  const deadline = Date.now() + 180_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`The standalone exited with ${child.exitCode}:\n${output}`);
    const ready = await fetch(`http://127.0.0.1:${port}/readyz`).then(
      (r) => r.ok,
      () => false,
    );
    if (ready) break;
    if (Date.now() > deadline) throw new Error(`The standalone never became ready:\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  return {
    output: () => output,
    async stop() {
      child.kill('SIGTERM');
      const code = await exited;
      if (code !== 0) throw new Error(`The standalone stopped with ${code}:\n${output}`);
    },
  };
}

async function main() {
  const ref = process.argv[2] ?? 'v0.1.0';
  const commit = git('rev-parse', '--verify', `${ref}^{commit}`);
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'upgrade-fixture-'));
  const source = path.join(work, 'source');
  const dataDir = path.join(work, 'data');
  git('worktree', 'add', '--detach', source, commit);
  try {
    fs.symlinkSync(path.join(REPO_ROOT, 'node_modules'), path.join(source, 'node_modules'));
    process.stdout.write(`Building ${ref} (${commit.slice(0, 7)}) in ${source}\n`);
    execFileSync(process.execPath, [require.resolve('@swc/cli/bin/swc.js'), 'apps', 'libs', '-d', 'dist', '--quiet'], {
      cwd: source,
      stdio: 'inherit',
    });
    const port = await freePort();
    const standalone = await startStandalone(source, dataDir, port);
    let seeded;
    try {
      seeded = await seed(`http://127.0.0.1:${port}`);
    } catch (error) {
      process.stderr.write(standalone.output());
      throw error;
    } finally {
      await standalone.stop();
    }
    fs.mkdirSync(OUT_DIR, { recursive: true });
    const archive = path.join(OUT_DIR, `${ref}.tar.br`);
    const tarball = execFileSync('tar', ['-cf', '-', '-C', work, 'data'], { maxBuffer: 1024 * 1024 * 1024 });
    // Brotli at its best with a 16 MB window: a third of gzip -9's size here (PGlite's catalogs and WAL
    // repeat across its three databases), in Node itself; compressing takes half a minute, reading one.
    const { BROTLI_PARAM_QUALITY, BROTLI_PARAM_LGWIN, BROTLI_PARAM_SIZE_HINT } = zlib.constants;
    const params = { [BROTLI_PARAM_QUALITY]: 11, [BROTLI_PARAM_LGWIN]: 24, [BROTLI_PARAM_SIZE_HINT]: tarball.length };
    fs.writeFileSync(archive, zlib.brotliCompressSync(tarball, { params }));
    const manifest = path.join(OUT_DIR, `${ref}.json`);
    fs.writeFileSync(manifest, `${JSON.stringify({ release: ref, commit, ...seeded }, null, 2)}\n`);
    execFileSync(process.execPath, [require.resolve('prettier/bin/prettier.cjs'), '--write', manifest]);
    const size = (file) => `${(fs.statSync(file).size / 1024 / 1024).toFixed(2)} MB`;
    const unpacked = execFileSync('du', ['-sh', dataDir], { encoding: 'utf8' }).split('\t')[0];
    process.stdout.write(`Wrote ${archive} (${size(archive)}; ${unpacked} unpacked) and ${manifest}\n`);
  } finally {
    git('worktree', 'remove', '--force', source);
    fs.rmSync(work, { recursive: true, force: true });
  }
}

main().catch((error) => {
  process.stderr.write(`${error.stack ?? error}\n`);
  process.exit(1);
});

import { eventually } from '@analytics/testing';
import { spawn } from 'node:child_process';
import { resolve } from 'node:path';

// Built by the global setup (swc, apps and libs into dist/), like the apps the e2e specs spawn.
const REPO_ROOT = resolve(__dirname, '../../../..');
const SCRIPT = resolve(REPO_ROOT, 'dist/libs/jobs/test/support/claiming-worker.js');

export interface ClaimingWorker {
  /** The id of the job it claimed, once it says so. */
  claimedJobId(): Promise<string>;
  /** SIGKILL: no shutdown hook, no chance to give the job back. */
  kill(): Promise<void>;
}

/** Runs claiming-worker.ts as its own process, with only the given environment. */
export function startClaimingWorker(env: Record<string, string>): ClaimingWorker {
  const child = spawn(process.execPath, [SCRIPT], {
    cwd: REPO_ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', LOG_LEVEL: 'silent', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  return {
    claimedJobId: () =>
      eventually(
        () => {
          const match = /claimed (\S+) attempt 1/.exec(output);
          if (!match) throw new Error(`The worker claimed nothing (exit code ${child.exitCode}):\n${output}`);
          return match[1];
        },
        { timeoutMs: 30_000 },
      ),
    async kill() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
    },
  };
}

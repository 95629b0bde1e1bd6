import { ChildProcess, spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { eventually } from './eventually';

// libs/testing/src, from the sources (tests) or from dist/ (benchmarks).
const REPO_ROOT = resolve(__dirname, __dirname.includes('/dist/') ? '../../../..' : '../../..');

export interface ServiceProcess {
  child: ChildProcess;
  output(): string;
  waitForOutput(pattern: RegExp, timeoutMs?: number): Promise<RegExpMatchArray>;
  /** Resolves with the exit code once the process has ended. */
  exited: Promise<number | null>;
  /** SIGTERM, then SIGKILL if it is still there after the grace period. */
  stop(graceMs?: number): Promise<number | null>;
}

/**
 * Runs a built app (`dist/apps/<app>/src/main.js`, built by global setup) as its own process,
 * exactly as `npm start` or a container would, with only the given environment (and arguments) added.
 */
export function spawnService(app: string, env: Record<string, string>, args: string[] = []): ServiceProcess {
  const child = spawn(process.execPath, [resolve(REPO_ROOT, 'dist/apps', app, 'src/main.js'), ...args], {
    cwd: REPO_ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
  return {
    child,
    output: () => output,
    exited,
    waitForOutput: (pattern, timeoutMs = 30_000) =>
      eventually(
        () => {
          const match = pattern.exec(output);
          if (!match) throw new Error(`Output never matched ${pattern}:\n${output}`);
          return match;
        },
        { timeoutMs },
      ),
    async stop(graceMs = 10_000) {
      if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
      try {
        return await exited;
      } finally {
        clearTimeout(timer);
      }
    },
  };
}

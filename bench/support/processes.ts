import { ChildProcess, spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { freePort } from '@analytics/testing';

/** The repository root, from the sources (bench/) or from the build (dist/bench/). */
export function repoRoot(): string {
  for (let dir = __dirname; dir !== dirname(dir); dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json')) && existsSync(join(dir, 'scripts', 'kafka.js'))) return dir;
  }
  throw new Error(`cannot find the repository root above ${__dirname}`);
}

export { freePort };

export interface BenchProcess {
  name: string;
  child: ChildProcess;
  pid: number;
  output(): string;
  exited: Promise<number | null>;
  /** SIGTERM (the app drains and exits), SIGKILL after the grace period. */
  stop(graceMs?: number): Promise<number | null>;
}

/** Runs a built script with this Node (24), only the given environment, and optional Node flags. */
export function spawnScript(name: string, script: string, env: Record<string, string>, nodeFlags: string[] = []): BenchProcess {
  const child = spawn(process.execPath, [...nodeFlags, script], {
    cwd: repoRoot(),
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const keep = (chunk: Buffer) => {
    output += chunk.toString();
    if (output.length > 200_000) output = output.slice(-100_000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
  return {
    name,
    child,
    pid: child.pid!,
    output: () => output,
    exited,
    async stop(graceMs = 15_000) {
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

export async function poll<T>(check: () => Promise<T> | T, timeoutMs: number, intervalMs = 50): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await check();
    } catch (error) {
      if (Date.now() >= deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, intervalMs));
    }
  }
}

/** Resident memory now and at its peak (kB → MB), from /proc/<pid>/status. */
export function memoryOf(pid: number): { rssMb: number; peakRssMb: number } | undefined {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? 0);
    return { rssMb: kb('VmRSS') / 1024, peakRssMb: kb('VmHWM') / 1024 };
  } catch {
    return undefined;
  }
}

/** CPU time a process has used so far, in seconds (user + system, from /proc/<pid>/stat). */
export function cpuSecondsOf(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return 0;
  }
}

/** Busy and total CPU seconds of the whole machine so far (all cores, from /proc/stat). */
export function machineCpuSeconds(): { busy: number; total: number } {
  const [, ...values] = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/);
  const [user, nice, system, idle, iowait, irq, softirq, steal] = values.map(Number);
  const busy = user + nice + system + irq + softirq + steal;
  return { busy: busy / 100, total: (busy + idle + iowait) / 100 };
}

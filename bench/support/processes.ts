import { ChildProcess, spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
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

/** The Node flags deploy/docker/entrypoint.sh and `npm start` give the standalone. */
export const STANDALONE_NODE_FLAGS = '--max-semi-space-size=16 --no-allocation-site-pretenuring';
/** The gateway's: the standalone's, and a full collection once its old generation has grown by half (V8 lets it grow fourfold on a large machine). */
export const GATEWAY_NODE_FLAGS = `${STANDALONE_NODE_FLAGS} --heap-growing-percent=50`;
/** The gateway's environment as deploy/docker/entrypoint.sh gives it: glibc's 128 KiB mmap threshold held fixed. */
export const GATEWAY_ENV: Record<string, string> = { MALLOC_MMAP_THRESHOLD_: '131072' };

/** The Node flags a bench setting names (space-separated; empty for V8's defaults), else `defaults`. */
export const nodeFlagsFrom = (setting: string | undefined, defaults: string): string[] =>
  (setting ?? defaults).split(' ').filter(Boolean);

/** Runs a built script with this Node (24), only the given environment, and optional Node flags. */
export function spawnScript(
  name: string,
  script: string,
  env: Record<string, string>,
  nodeFlags: string[] = [],
): BenchProcess {
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

/**
 * Where a process's resident memory is, in MB: anonymous (heaps, stacks, Buffers: what the process
 * allocated), file-backed (code and data mapped from files), and of the file-backed part what libchdb
 * (the in-process ClickHouse engine's library) has paged in, which a service beside a ClickHouse
 * server does not map at all. Reads /proc/<pid>/smaps, so sample it at peaks, not continuously.
 */
export function residentOf(
  pid: number,
): { rssMb: number; anonMb: number; fileMb: number; chdbLibraryMb: number } | undefined {
  try {
    let [rss, anon, chdb] = [0, 0, 0];
    let mapping = '';
    for (const line of readFileSync(`/proc/${pid}/smaps`, 'utf8').split('\n')) {
      const header = /^[0-9a-f]+-[0-9a-f]+ \S+ \S+ \S+ \S+\s*(.*)$/.exec(line);
      if (header) mapping = header[1];
      else if (line.startsWith('Rss:')) {
        const kb = Number(line.slice(4).trim().split(' ')[0]);
        rss += kb;
        if (mapping.includes('libchdb')) chdb += kb;
      } else if (line.startsWith('Anonymous:')) anon += Number(line.slice(10).trim().split(' ')[0]);
    }
    return { rssMb: rss / 1024, anonMb: anon / 1024, fileMb: (rss - anon) / 1024, chdbLibraryMb: chdb / 1024 };
  } catch {
    return undefined;
  }
}

/** User + system CPU seconds in a `/proc/<pid>/stat` or `/proc/<pid>/task/<tid>/stat` line. */
function cpuSecondsInStat(stat: string): number {
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/** CPU time a process has used so far, in seconds (user + system, from /proc/<pid>/stat). */
export function cpuSecondsOf(pid: number): number {
  try {
    return cpuSecondsInStat(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return 0;
  }
}

/**
 * CPU seconds each of a process's threads has used so far, added up by thread name with digits
 * folded (the JVM's `C2 CompilerThread0` and `…1` are one `CN CompilerThreN`; Linux keeps 15 characters).
 */
export function threadCpuSecondsOf(pid: number): Record<string, number> {
  const seconds: Record<string, number> = {};
  let threads: string[];
  try {
    threads = readdirSync(`/proc/${pid}/task`);
  } catch {
    return seconds;
  }
  for (const thread of threads) {
    try {
      const stat = readFileSync(`/proc/${pid}/task/${thread}/stat`, 'utf8');
      const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')).replace(/\d+/g, 'N');
      seconds[name] = (seconds[name] ?? 0) + cpuSecondsInStat(stat);
    } catch {
      // the thread ended meanwhile
    }
  }
  return seconds;
}

/** Busy and total CPU seconds of the whole machine so far (all cores, from /proc/stat). */
export function machineCpuSeconds(): { busy: number; total: number } {
  const [, ...values] = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/);
  const [user, nice, system, idle, iowait, irq, softirq, steal] = values.map(Number);
  const busy = user + nice + system + irq + softirq + steal;
  return { busy: busy / 100, total: (busy + idle + iowait) / 100 };
}

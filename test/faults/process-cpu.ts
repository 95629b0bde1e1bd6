import { readFileSync } from 'node:fs';

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** CPU ticks (1/100 s) the process has used, from /proc/<pid>/stat. */
function cpuTicks(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return Number(fields[11]) + Number(fields[12]);
}

/**
 * Resolves true as soon as the process uses CPU hard (≥ 2 ticks within ~30 ms), false after
 * timeoutMs: a kill at that moment lands inside (or just after) an insert, not between two.
 */
export async function busy(pid: number, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  const history: number[] = [cpuTicks(pid)];
  while (Date.now() < deadline) {
    await pause(5);
    history.push(cpuTicks(pid));
    if (history.length > 6) history.shift();
    if (history[history.length - 1] - history[0] >= 2) return true;
  }
  return false;
}

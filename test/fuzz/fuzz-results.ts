import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FuzzResult } from './fuzz-report';

/** Leaves a mode's figures where the fuzz reporter (fuzz-reporter.js, in jest's parent process) sums them into the last line. */
export function recordFuzzResult(result: FuzzResult): void {
  process.stdout.write(`fuzz result ${JSON.stringify(result)}\n`);
  const dir = process.env.FUZZ_RESULTS_DIR;
  if (!dir) return;
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, `${result.mode}.json`), JSON.stringify(result));
}

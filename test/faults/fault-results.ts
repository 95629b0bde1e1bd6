import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ExactlyOnce } from '../multi-process/pipeline-harness';

export interface ScenarioResult extends ExactlyOnce {
  scenario: string;
  seconds: number;
  notes: Record<string, unknown>;
}

/**
 * Each scenario leaves its counts where the faults reporter (faults-reporter.js, in the jest parent
 * process) finds them, so the run can end with one total line whatever order the files ran in.
 */
export function recordScenario(result: ScenarioResult): void {
  const dir = process.env.FAULTS_RESULTS_DIR;
  const line = `fault scenario ${result.scenario}: ${JSON.stringify(result)}`;
  process.stdout.write(`${line}\n`);
  if (!dir) return;
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, `${result.scenario}.json`), JSON.stringify(result));
}

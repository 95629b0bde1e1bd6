'use strict';
// Jest's output, then each fault scenario's counts and, as the very last line of the run, their
// total: `faults: acked=<n> stored=<n> lost=<n> duplicated=<n>`. A scenario that produced no counts
// is named before the total.
const ResultsReporter = require('../support/results-reporter');

class FaultsReporter extends ResultsReporter {
  constructor(globalConfig) {
    super(globalConfig, 'FAULTS_RESULTS_DIR', 'faults');
  }

  summarize(results, aggregated) {
    const total = { acked: 0, stored: 0, lost: 0, duplicated: 0 };
    const lines = [];
    for (const r of results) {
      for (const key of Object.keys(total)) total[key] += r[key];
      lines.push(
        `faults[${r.scenario}]: acked=${r.acked} stored=${r.stored} lost=${r.lost} duplicated=${r.duplicated} ` +
          `unknown=${r.unknown} raw_rows=${r.raw} seconds=${r.seconds} ${JSON.stringify(r.notes)}`,
      );
    }
    if (aggregated.numFailedTests > 0 || aggregated.numRuntimeErrorTestSuites > 0) {
      lines.push(
        `faults: ${aggregated.numFailedTests} test(s) failed, ${aggregated.numRuntimeErrorTestSuites} suite(s) did not run; ` +
          `the total covers ${results.length} scenario(s)`,
      );
    }
    lines.push(`faults: acked=${total.acked} stored=${total.stored} lost=${total.lost} duplicated=${total.duplicated}`);
    return lines;
  }
}

module.exports = FaultsReporter;

'use strict';
// Jest's default output (progress and summary), then each fault scenario's counts and, as the very
// last line of the run, their total: `faults: acked=<n> stored=<n> lost=<n> duplicated=<n>`.
// It wraps jest's own default and summary reporters (listing 'default' instead would make jest
// print its summary after us). A scenario that produced no counts is named before the total.
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { DefaultReporter, SummaryReporter } = require('@jest/reporters');

class FaultsReporter {
  constructor(globalConfig) {
    this.inner = [new DefaultReporter(globalConfig), new SummaryReporter(globalConfig, {})];
    this.dir = fs.mkdtempSync(path.join(os.tmpdir(), 'faults-results-'));
    // Test workers are spawned after reporters are built and inherit this.
    process.env.FAULTS_RESULTS_DIR = this.dir;
  }

  async each(method, fallback, args) {
    for (const reporter of this.inner) {
      if (reporter[method]) await reporter[method](...args);
      else if (fallback && reporter[fallback]) await reporter[fallback](...args);
    }
  }

  onRunStart(...args) {
    return this.each('onRunStart', undefined, args);
  }
  onTestFileStart(...args) {
    return this.each('onTestFileStart', 'onTestStart', args);
  }
  onTestCaseStart(...args) {
    return this.each('onTestCaseStart', undefined, args);
  }
  onTestCaseResult(...args) {
    return this.each('onTestCaseResult', undefined, args);
  }
  onTestFileResult(...args) {
    return this.each('onTestFileResult', 'onTestResult', args);
  }
  getLastError() {
    return this.inner.map((r) => r.getLastError?.()).find(Boolean);
  }

  async onRunComplete(contexts, aggregated) {
    await this.each('onRunComplete', undefined, [contexts, aggregated]);
    const files = fs.existsSync(this.dir) ? fs.readdirSync(this.dir).filter((f) => f.endsWith('.json')).sort() : [];
    const results = files.map((f) => JSON.parse(fs.readFileSync(path.join(this.dir, f), 'utf8')));
    fs.rmSync(this.dir, { recursive: true, force: true });
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
    // After jest's summary (written to stderr just before, synchronously): last in the joined output,
    // and the last line of stdout alone.
    process.stdout.write(`\n${lines.join('\n')}\n`);
  }
}

module.exports = FaultsReporter;

'use strict';
// Jest's default and summary output, then, as the very last line, one JSON object summing the
// modes' figures: {requests, five_xx, crashes, lost, duplicated, by_status, seconds, modes}.
// Wraps jest's reporters the way test/faults/faults-reporter.js does, so jest's summary comes first.
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { DefaultReporter, SummaryReporter } = require('@jest/reporters');

class FuzzReporter {
  constructor(globalConfig) {
    this.inner = [new DefaultReporter(globalConfig), new SummaryReporter(globalConfig, {})];
    this.dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fuzz-results-'));
    process.env.FUZZ_RESULTS_DIR = this.dir;
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
    // The default reporter flushes what the test printed 100 ms after the last write (its forced flush
    // works only once): wait for it, so that the figures below stay the last line.
    await new Promise((resolve) => setTimeout(resolve, 300));
    const files = fs.existsSync(this.dir) ? fs.readdirSync(this.dir).filter((f) => f.endsWith('.json')).sort() : [];
    const results = files.map((f) => JSON.parse(fs.readFileSync(path.join(this.dir, f), 'utf8')));
    fs.rmSync(this.dir, { recursive: true, force: true });
    const total = { requests: 0, five_xx: 0, crashes: 0, lost: 0, duplicated: 0, acked_events: 0, timeouts: 0, by_status: {}, seconds: 0 };
    for (const r of results) {
      for (const key of ['requests', 'five_xx', 'crashes', 'lost', 'duplicated', 'acked_events', 'timeouts', 'seconds']) total[key] += r[key];
      for (const [status, n] of Object.entries(r.by_status)) total.by_status[status] = (total.by_status[status] ?? 0) + n;
    }
    const seed = results[0]?.seed;
    const modes = Object.fromEntries(results.map((r) => [r.mode, { requests: r.requests, five_xx: r.five_xx, crashes: r.crashes, lost: r.lost, duplicated: r.duplicated, seconds: r.seconds, cases_file: r.cases_file }]));
    const incomplete = aggregated.numRuntimeErrorTestSuites > 0 || results.length === 0 ? { incomplete: true } : {};
    // After jest's summary (stderr): last in the joined output, and the last line of stdout alone.
    process.stdout.write(`\n${JSON.stringify({ ...total, seed, modes, ...incomplete })}\n`);
  }
}

module.exports = FuzzReporter;

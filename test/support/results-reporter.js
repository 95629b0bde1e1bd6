'use strict';
// The long runs' jest reporter (fault tests, fuzzing): jest's default output (progress, summary),
// then a run's own figures as the very last lines. Test workers write their figures as JSON files
// into a directory named by an environment variable; a subclass turns them into lines.
// It wraps jest's own default and summary reporters (listing 'default' instead would make jest
// print its summary after ours).
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { DefaultReporter, SummaryReporter } = require('@jest/reporters');

class ResultsReporter {
  /** `directoryVariable`: where the workers (spawned after reporters are built, inheriting it) write. */
  constructor(globalConfig, directoryVariable, prefix) {
    this.inner = [new DefaultReporter(globalConfig), new SummaryReporter(globalConfig, {})];
    this.dir = fs.mkdtempSync(path.join(os.tmpdir(), `${prefix}-results-`));
    process.env[directoryVariable] = this.dir;
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

  /** The lines to print last, from the workers' results (subclasses). */
  summarize(_results, _aggregated) {
    return [];
  }

  async onRunComplete(contexts, aggregated) {
    await this.each('onRunComplete', undefined, [contexts, aggregated]);
    // The default reporter flushes what the tests printed 100 ms after the last write (its forced flush
    // works only once): wait for it, so that our figures stay the last lines.
    await new Promise((resolve) => setTimeout(resolve, 300));
    const files = fs.existsSync(this.dir)
      ? fs
          .readdirSync(this.dir)
          .filter((f) => f.endsWith('.json'))
          .sort()
      : [];
    const results = files.map((f) => JSON.parse(fs.readFileSync(path.join(this.dir, f), 'utf8')));
    fs.rmSync(this.dir, { recursive: true, force: true });
    // After jest's summary (stderr): last in the joined output, and the last lines of stdout alone.
    process.stdout.write(`\n${this.summarize(results, aggregated).join('\n')}\n`);
  }
}

module.exports = ResultsReporter;

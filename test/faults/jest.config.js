/**
 * `npm run test:faults`: processes killed and the broker restarted under load. Kept out of `npm test`:
 * they take about a quarter of an hour on our 2-core machines (see docs/benchmarks.md). Same engines and
 * build as `npm test` through the shared global setup; one file at a time, since each loads both cores.
 */
const base = require('../../jest.config.js');

module.exports = {
  ...base,
  rootDir: '../..',
  roots: ['<rootDir>/test/faults'],
  testRegex: '\\.fault-spec\\.ts$',
  testTimeout: 300_000,
  maxWorkers: 1,
  // Jest's default and summary output, then the fault counts as the last line.
  reporters: ['<rootDir>/test/faults/faults-reporter.js'],
};

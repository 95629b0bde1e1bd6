/**
 * `npm run test:fuzz`: the long hostile-request run (docs/fuzz.md). Kept out of `npm test`, which runs
 * the short form (hostile-requests.e2e-spec.ts); same engines and build through the shared global setup.
 */
const base = require('../../jest.config.js');

module.exports = {
  ...base,
  rootDir: '../..',
  roots: ['<rootDir>/test/fuzz'],
  testRegex: '\\.fuzz-spec\\.ts$',
  testTimeout: 8 * 3_600_000,
  maxWorkers: 1,
  // Jest's default output, then the run's figures as one JSON object on the last line.
  reporters: ['<rootDir>/test/fuzz/fuzz-reporter.js'],
};

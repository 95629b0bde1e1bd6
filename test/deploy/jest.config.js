/**
 * `npm run test:deploy`: the deploy checks alone. They need no engines, so the root config's
 * global setup (build, Kafka broker) is left out to keep this run to seconds, and the one spec here
 * that opens a ClickHouse (`.int-spec`) runs with the others in `npm test`.
 */
const root = require('../../jest.config.js');

module.exports = {
  ...root,
  rootDir: '../..',
  roots: ['<rootDir>/test/deploy'],
  testRegex: '\\.spec\\.ts$',
  globalSetup: undefined,
  globalTeardown: undefined,
};

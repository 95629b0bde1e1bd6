/**
 * `npm run test:deploy`: the deploy checks alone. They need no engines, so the root config's
 * global setup (build, Kafka broker) is left out to keep this run to seconds.
 */
const root = require('../../jest.config.js');

module.exports = { ...root, rootDir: '../..', roots: ['<rootDir>/test/deploy'], globalSetup: undefined, globalTeardown: undefined };

/**
 * `chdb/connection` as the libraries load it in tests (jest's moduleNameMapper), leaving chDB's own
 * module where the test environment finds it when the file is done (test/setup/test-environment.js).
 */
const { dirname, join } = require('node:path');

const root = dirname(require.resolve('chdb'));
globalThis[Symbol.for('analytics.test.chdb')] = require(join(root, 'index.js'));
module.exports = require(join(root, 'dist/connection/index.js'));

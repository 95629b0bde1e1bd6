/**
 * One jest run covers unit (`.spec`), integration (`.int-spec`, real engines) and end-to-end
 * (`.e2e-spec`, through HTTP) tests. Global setup provides the engines; see libs/testing.
 */
module.exports = {
  // Node's, closing every chDB session a file left open (see the file).
  testEnvironment: '<rootDir>/test/setup/test-environment.js',
  rootDir: '.',
  roots: ['<rootDir>/apps', '<rootDir>/libs', '<rootDir>/test'],
  testRegex: '\\.(spec|int-spec|e2e-spec)\\.ts$',
  // The architecture fixtures break the rules on purpose; they are checked, never run.
  testPathIgnorePatterns: [
    '/node_modules/',
    '<rootDir>/test/architecture/fixtures/',
    '<rootDir>/test/architecture/tenancy-fixtures/',
  ],
  transform: { '^.+\\.ts$': ['@swc/jest'] },
  moduleNameMapper: {
    '^@analytics/(.*)$': '<rootDir>/libs/$1/src',
    '^chdb/connection$': '<rootDir>/test/setup/chdb-connection.js',
  },
  globalSetup: '<rootDir>/test/setup/global-setup.ts',
  globalTeardown: '<rootDir>/test/setup/global-teardown.ts',
  testTimeout: 60_000,
  maxWorkers: 2,
};

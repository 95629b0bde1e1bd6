/** One jest run covers unit (`.spec`), integration (`.int-spec`, real engines) and end-to-end (`.e2e-spec`) tests. */
module.exports = {
  testEnvironment: 'node',
  rootDir: '.',
  roots: ['<rootDir>/apps', '<rootDir>/libs', '<rootDir>/test'],
  testRegex: '\\.(spec|int-spec|e2e-spec)\\.ts$',
  transform: { '^.+\\.ts$': ['@swc/jest'] },
  moduleNameMapper: { '^@analytics/(.*)$': '<rootDir>/libs/$1/src' },
  testTimeout: 60_000,
};

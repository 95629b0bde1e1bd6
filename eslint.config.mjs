// Type-aware lint run by `npm test` (npm run lint): promises are awaited or handed off on purpose,
// and no `any` flows through the source. Tests may read untyped JSON responses, so the `any` rules
// cover apps, libs and bench sources, not specs and test helpers.
import tseslint from 'typescript-eslint';

const PROMISE_RULES = {
  '@typescript-eslint/no-floating-promises': 'error',
  '@typescript-eslint/no-misused-promises': 'error',
  '@typescript-eslint/no-require-imports': 'error',
};

const ANY_RULES = {
  '@typescript-eslint/no-explicit-any': 'error',
  '@typescript-eslint/no-unsafe-argument': 'error',
  '@typescript-eslint/no-unsafe-assignment': 'error',
  '@typescript-eslint/no-unsafe-call': 'error',
  '@typescript-eslint/no-unsafe-member-access': 'error',
  '@typescript-eslint/no-unsafe-return': 'error',
};

const TESTS = ['**/*.spec.ts', '**/*-spec.ts', '**/test/**', 'test/**', 'libs/testing/**'];

export default tseslint.config(
  {
    ignores: [
      'dist/**',
      'node_modules/**',
      'web/**',
      'data/**',
      'tmp/**',
      'test/architecture/*fixtures/**',
      '**/*.js',
      '**/*.cjs',
      '**/*.mjs',
    ],
  },
  {
    files: ['**/*.ts'],
    extends: [tseslint.configs.base],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: PROMISE_RULES,
  },
  { files: ['apps/**/*.ts', 'libs/**/*.ts', 'bench/**/*.ts'], ignores: TESTS, rules: ANY_RULES },
);

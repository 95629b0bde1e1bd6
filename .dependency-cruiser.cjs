/**
 * The direction of imports (docs: STYLE.md "Where things live"), checked by `npm run lint:imports`
 * and, on a fixture tree that breaks every rule, by test/architecture/import-rules.spec.ts.
 *
 * Paths are relative to the folder the cruise runs from (the repository root); `@analytics/<lib>`
 * resolves through tsconfig.json's `paths` to `libs/<lib>/src/index.ts`.
 */

/** Unit, integration and end-to-end specs: they may use engines even beside pure code. */
const SPEC = '\\.(spec|int-spec|e2e-spec)\\.ts$';

/**
 * Pure code: the event, profile-update, filter-expression and report-definition libs, and the query lib's plain
 * TypeScript reference implementations that the ClickHouse SQL is checked against (`*-reference.ts`
 * and `reference/`).
 */
const PURE = [
  '^libs/(events|expression|profile-updates|report-definitions)/src/',
  '^libs/query/src/(.+-reference\\.ts$|reference/)',
];

/**
 * What touches engines or the network: the engine libs (Redis for rate-limits), the drivers, and
 * the file and socket modules of Node (core modules are named without `node:`). The pure rule
 * follows imports transitively, so any lib that reaches one of these is an I/O lib too.
 */
const IO = [
  '^libs/(clickhouse|postgres|kafka|rate-limits)/',
  '(^|/)node_modules/(pg|@clickhouse/client|@clickhouse/client-common|kafkajs|@platformatic/kafka|ioredis|@electric-sql/pglite|chdb)/',
  '^(fs|fs/promises|net|http|https|http2|tls|dgram)$',
];

/**
 * A lib's internals: anything under its src/ but its index.ts, or a deep `@analytics/<lib>/…`
 * import (tsconfig has no such alias, so it stays unresolved and keeps its name).
 */
const LIB_INTERNALS = '^(libs/[^/]+/src/|@analytics/[^/]+/)';
const LIB_INDEX = '^libs/[^/]+/src/index\\.ts$';

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'lib-imports-app',
      comment: 'A lib never imports an app: apps compose libs, not the other way round.',
      severity: 'error',
      from: { path: '^libs/' },
      to: { path: '^apps/' },
    },
    {
      name: 'pure-lib-reaches-io',
      comment:
        'Pure code (events, profile updates, expression, report definitions, query references) imports nothing that touches engines, ' +
        'files or the network, directly or through another module.',
      severity: 'error',
      from: { path: PURE, pathNot: SPEC },
      to: { path: IO, reachable: true },
    },
    {
      name: 'lib-internals-from-other-lib',
      comment:
        "A lib uses another lib through its index.ts only (`@analytics/<lib>`); a lib's own tests may use its src/.",
      severity: 'error',
      from: { path: '^libs/([^/]+)/' },
      to: { path: LIB_INTERNALS, pathNot: ['^libs/$1/src/', LIB_INDEX] },
    },
    {
      name: 'lib-internals-from-outside',
      comment: 'Apps, benchmarks and top-level tests use a lib through its index.ts only (`@analytics/<lib>`).',
      severity: 'error',
      from: { pathNot: '^libs/' },
      to: { path: LIB_INTERNALS, pathNot: LIB_INDEX },
    },
    {
      name: 'circular-between-libs',
      comment:
        'No cycle through two libs. Cross-lib imports go through index.ts files that re-export ' +
        'the lib, so a cycle between libs shows as a cycle of modules that leaves the lib.',
      severity: 'error',
      from: { path: '^libs/([^/]+)/' },
      to: { circular: true, via: { pathNot: '^libs/$1/' } },
    },
  ],
  options: {
    doNotFollow: { path: '(^|/)node_modules/' },
    // The fixtures break every rule on purpose (test/architecture/import-rules.spec.ts, and the
    // tenancy checks' in project-scope.spec.ts and tenant-predicate.spec.ts).
    exclude: { path: '^(dist|test/architecture/(fixtures|tenancy-fixtures))/' },
    // Type-only imports count: they couple the code as much as value imports do.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.d.ts', '.js', '.cjs', '.mjs', '.json'],
    },
    reporterOptions: { text: { highlightFocused: true } },
  },
};

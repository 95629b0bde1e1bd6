import { join } from 'node:path';
import { CONFIG_FILE, cruiseImports, describeViolation, REPO_ROOT } from './cruise-imports';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { forbidden } = require(CONFIG_FILE) as { forbidden: { name: string }[] };

const FIXTURES = join(__dirname, 'fixtures');

/** Every violation the fixture tree holds, and no more: the allowed imports beside them stay allowed. */
const EXPECTED = [
  'lib-imports-app: libs/reports/src/report-routes.ts → apps/api/src/main.ts',

  'pure-lib-reaches-io: libs/events/src/index.ts → fs',
  'pure-lib-reaches-io: libs/events/src/validate-event.ts → fs',
  'pure-lib-reaches-io: libs/expression/src/compile.ts → libs/clickhouse/src/index.ts',
  'pure-lib-reaches-io: libs/query/src/reference/query-event.ts → libs/clickhouse/src/index.ts',
  'pure-lib-reaches-io: libs/query/src/retention/retention-reference.ts → ../../../node_modules/kafkajs/index.js',

  'pure-lib-reaches-io: libs/query/src/funnels/funnel-reference.ts → libs/clickhouse/src/index.ts',
  'pure-lib-reaches-io: libs/query/src/insights/insights-reference.ts → fs',

  'lib-internals-from-other-lib: libs/reports/src/report-store.ts → libs/store/src/store-file.ts',
  'lib-internals-from-other-lib: libs/reports/src/report-store.ts → @analytics/store/store-file',

  'lib-internals-from-outside: apps/api/src/main.ts → @analytics/store/store-file',
  'lib-internals-from-outside: bench/run.ts → libs/store/src/store-file.ts',

  'circular-between-libs: libs/accounts/src/index.ts → libs/users/src/index.ts',
];

describe('import rules (.dependency-cruiser.cjs)', () => {
  it('report every rule broken in the fixture tree, and nothing the tree does in the allowed ways', async () => {
    const found = (await cruiseImports(FIXTURES)).map(describeViolation);

    expect([...new Set(found)].sort()).toEqual([...EXPECTED].sort());
  });

  it('have a fixture that breaks each of them', () => {
    const broken = new Set(EXPECTED.map((violation) => violation.split(':')[0]));

    expect(forbidden.map((rule) => rule.name).filter((name) => !broken.has(name))).toEqual([]);
  });

  it('hold in the repository', async () => {
    expect((await cruiseImports(REPO_ROOT)).map(describeViolation)).toEqual([]);
  });
});

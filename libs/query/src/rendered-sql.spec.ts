import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BoundQuery } from './clickhouse/query-runner';
import { parseEventExpression, propertyExpression } from './expressions/query-expressions';
import { funnelSql } from './funnels/funnel-sql';
import { insightsSql } from './insights/insights-sql';
import { retentionSql } from './retention/retention-sql';
import { segmentationSql } from './segmentation/segmentation-sql';
import { projectScope } from '@analytics/tenancy';

/**
 * The SQL of representative reports, committed, so that every change to a query builder shows as a
 * readable diff. UPDATE_GOLDEN=1 rewrites the file.
 */
const GOLDEN = join(__dirname, '__golden__', 'rendered-sql.txt');
const expression = (text: string) => parseEventExpression('where', text);
const range = { fromDay: 19786, toDay: 19815 };
const scope = projectScope(1);

const EXAMPLES: [string, BoundQuery][] = [
  [
    'funnel: 3 steps, daily',
    funnelSql(scope, { steps: [{ event: 'Viewed page' }, { event: 'Signed up' }, { event: 'Purchased' }], filters: [], windowMs: 604_800_000, ...range, buckets: { kind: 'days', days: 1 }, limit: 255 }),
  ],
  [
    'funnel: 2 steps, step where, funnel where, on, weekly',
    funnelSql(scope, {
      steps: [{ event: 'Signed up' }, { event: 'Purchased', where: expression('properties["amount"] > 10') }],
      filters: [expression('properties["plan"] != "free"')],
      windowMs: 86_400_000,
      ...range,
      buckets: { kind: 'week' },
      on: expression('properties["plan"]'),
      limit: 10,
    }),
  ],
  ['retention: birth', retentionSql(scope, { type: 'birth', bornEvent: 'Signed up', event: 'Purchased', ...range, buckets: { kind: 'days', days: 1 }, intervalCount: 7, unbounded: false })],
  ['retention: compounded, monthly, unbounded', retentionSql(scope, { type: 'compounded', event: 'Opened', where: expression('properties["n"] > 1'), ...range, buckets: { kind: 'month' }, intervalCount: 3, unbounded: true })],
  ['segmentation: on, unique, hourly', segmentationSql(scope, { events: ['Opened'], ...range, unit: 'hour', type: 'unique', on: expression('properties["$browser"]'), limit: 60 })],
  [
    'insights: total and p90 of a property, on',
    insightsSql(scope, {
      metrics: [
        { name: 'Opened', event: 'Opened', math: 'total' },
        { name: 'Paid', event: 'Paid', math: 'p90', property: propertyExpression('property', 'amount') },
      ],
      ...range,
      unit: 'day',
      on: expression('properties["plan"]'),
      limit: 5,
    }),
  ],
];

function render(): string {
  return EXAMPLES.map(([name, query]) => `-- ${name}\n${query.sql.trim()}\n-- params ${JSON.stringify(query.params)}\n`).join('\n');
}

describe('rendered SQL', () => {
  it('is the committed golden file', () => {
    const rendered = render();
    if (process.env.UPDATE_GOLDEN || !existsSync(GOLDEN)) writeFileSync(GOLDEN, rendered);
    expect(rendered).toBe(readFileSync(GOLDEN, 'utf8'));
  });
});

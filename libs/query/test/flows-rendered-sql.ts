import { projectScope } from '@analytics/tenancy';
import type { RenderedQuery } from '../../../test/rendered-sql/rendered-query';
import { parseEventExpression } from '../src/expressions/query-expressions';
import { flowsSql } from '../src/flows/flows-sql';
import { TimeZone } from '../src/time/time-zone';
import { streamSql } from '../src/stream/stream-sql';

/** The flows and activity-stream SQL for fixed inputs, committed as libs/query/sql/*.sql (npm run sql:render). */
const scope = projectScope(1);
/** 2024-03-04 … 2024-04-02 (UTC days since the epoch). */
const range = { fromDay: 19786, toDay: 19815, zone: TimeZone.UTC };
const rangeText = 'project 1, 2024-03-04 to 2024-04-02';

export const FLOWS_SQL: RenderedQuery[] = [
  {
    builder: 'flowsSql',
    inputs: `${rangeText}; 3 steps after Signed up; limit 10; merged ids, identity_lookup`,
    query: flowsSql(scope, { event: 'Signed up', direction: 'after', steps: 3, ...range, limit: 10 }),
  },
  {
    builder: 'flowsSql',
    inputs: `${rangeText}; 2 steps before Purchased where plan == "pro"; limit 5; merged ids on a cluster (the identity_map join)`,
    query: flowsSql(
      scope,
      {
        event: 'Purchased',
        direction: 'before',
        steps: 2,
        ...range,
        where: parseEventExpression('where', 'properties["plan"] == "pro"'),
        limit: 5,
      },
      true,
      false,
    ),
  },
  {
    builder: 'flowsSql',
    inputs: `${rangeText}; 5 steps after Signed up; limit 100; no merged id`,
    query: flowsSql(scope, { event: 'Signed up', direction: 'after', steps: 5, ...range, limit: 100 }, false),
  },
];

const ids = { members: ['$device:d1', 'user-1'], canonical: ['user-1', 'user-1'] };

export const STREAM_SQL: RenderedQuery[] = [
  {
    builder: 'streamSql',
    inputs: `${rangeText}; user-1 and its device; the first page of 101`,
    query: streamSql(scope, ids, range, 101),
  },
  {
    builder: 'streamSql',
    inputs: `project 1 keeping 30 days, 2024-03-04 to 2024-04-02; the page of 101 after a cursor`,
    query: streamSql(projectScope(1, 30), ids, range, 101, {
      timeMs: 1_710_000_000_000,
      event: 'Viewed page',
      distinctId: '$device:d1',
      insertId: 'e1',
    }),
  },
];

import { projectScope, renderChSql } from '@analytics/tenancy';
import type { RenderedQuery } from '../../../test/rendered-sql/rendered-query';
import { topEventNamesSql, topPropertiesSql, topValuesSql } from '../src/events/event-catalog-sql';
import { cohortCountSql, cohortMembersSql } from '../src/cohorts/cohort-members-sql';
import { parseEventExpression, propertyExpression } from '../src/expressions/query-expressions';
import { funnelSql } from '../src/funnels/funnel-sql';
import { insightsSql } from '../src/insights/insights-sql';
import { profilePropertiesSql, revenueSql, userProfileCountSql } from '../src/profiles/profile-catalog-sql';
import { addictionSql } from '../src/retention/addiction';
import { retentionSql } from '../src/retention/retention-sql';
import { numericRangeSql, numericSlotsSql } from '../src/segmentation/numeric-buckets';
import { numericSeriesSql } from '../src/segmentation/numeric-sum';
import { segmentationSql } from '../src/segmentation/segmentation-sql';
import { TimeZone } from '../src/time/time-zone';

/**
 * The query lib's report SQL for fixed inputs, committed as libs/query/sql/*.sql (npm run
 * sql:render). `resolve`: the project has a merged id (reports read through identity_map);
 * `lookup`: one server, where unique counts read identity_lookup instead of the join.
 */
const scope = projectScope(1);
const where = (text: string) => parseEventExpression('where', text);
/** 2024-03-04 … 2024-04-02 (UTC days since the epoch). */
const range = { fromDay: 19786, toDay: 19815, zone: TimeZone.UTC };
const rangeText = 'project 1, 2024-03-04 to 2024-04-02';
/** The same days in Berlin, whose clocks spring forward on 2024-03-31. */
const berlin = { ...range, zone: TimeZone.of('Europe/Berlin') };
const berlinText = 'project 1, 2024-03-04 to 2024-04-02 in Europe/Berlin';
const NOW_MS = 1_712_102_400_000;
const steps = [{ event: 'Viewed page' }, { event: 'Signed up' }, { event: 'Purchased' }];

export const FUNNEL_SQL: RenderedQuery[] = [
  {
    builder: 'funnelSql',
    inputs: `${rangeText}; steps Viewed page, Signed up, Purchased; window 7 days; daily buckets; limit 255; merged ids, identity_lookup`,
    query: funnelSql(scope, {
      steps,
      filters: [],
      windowMs: 604_800_000,
      calendarWindow: false,
      ...range,
      buckets: { kind: 'days', days: 1 },
      limit: 255,
    }),
  },
  {
    builder: 'funnelSql',
    inputs: `${rangeText}; steps Signed up, Purchased where amount > 10; funnel where plan != "free"; window 1 day; weekly; on plan, limit 10; merged ids, identity_lookup`,
    query: funnelSql(scope, {
      steps: [{ event: 'Signed up' }, { event: 'Purchased', where: where('properties["amount"] > 10') }],
      filters: [where('properties["plan"] != "free"')],
      windowMs: 86_400_000,
      calendarWindow: false,
      ...range,
      buckets: { kind: 'week' },
      on: where('properties["plan"]'),
      limit: 10,
    }),
  },
  {
    builder: 'funnelSql',
    inputs: `${rangeText}; steps Viewed page, Signed up, Purchased; window 7 days; monthly; limit 255; merged ids on a cluster (the identity_map join)`,
    query: funnelSql(
      scope,
      {
        steps,
        filters: [],
        windowMs: 604_800_000,
        calendarWindow: false,
        ...range,
        buckets: { kind: 'month' },
        limit: 255,
      },
      true,
      false,
    ),
  },
  {
    builder: 'funnelSql',
    inputs: `${rangeText}; steps Viewed page, Viewed page; window 1 hour; 3-day buckets; limit 255; no merged id`,
    query: funnelSql(
      scope,
      {
        steps: [{ event: 'Viewed page' }, { event: 'Viewed page' }],
        filters: [],
        windowMs: 3_600_000,
        calendarWindow: false,
        ...range,
        buckets: { kind: 'days', days: 3 },
        limit: 255,
      },
      false,
    ),
  },
  {
    builder: 'funnelSql',
    inputs: `${berlinText}; steps Viewed page, Signed up, Purchased; window 1 day on its clocks; weekly; limit 255; no merged id`,
    query: funnelSql(
      scope,
      {
        steps,
        filters: [],
        windowMs: 86_400_000,
        calendarWindow: true,
        ...berlin,
        buckets: { kind: 'week' },
        limit: 255,
      },
      false,
    ),
  },
];

export const RETENTION_SQL: RenderedQuery[] = [
  {
    builder: 'retentionSql',
    inputs: `${rangeText}; birth: born Signed up, returns Purchased; daily; 7 intervals, bounded; merged ids`,
    query: retentionSql(scope, {
      type: 'birth',
      bornEvent: 'Signed up',
      event: 'Purchased',
      ...range,
      buckets: { kind: 'days', days: 1 },
      intervalCount: 7,
      unbounded: false,
    }),
  },
  {
    builder: 'retentionSql',
    inputs: `${rangeText}; compounded: Opened where n > 1; monthly; 3 intervals, unbounded; no merged id`,
    query: retentionSql(
      scope,
      {
        type: 'compounded',
        event: 'Opened',
        where: where('properties["n"] > 1'),
        ...range,
        buckets: { kind: 'month' },
        intervalCount: 3,
        unbounded: true,
      },
      false,
    ),
  },
  {
    builder: 'retentionSql',
    inputs: `${berlinText}; birth: born Signed up, returns Purchased; weekly; 4 intervals, bounded; no merged id`,
    query: retentionSql(
      scope,
      {
        type: 'birth',
        bornEvent: 'Signed up',
        event: 'Purchased',
        ...berlin,
        buckets: { kind: 'week' },
        intervalCount: 4,
        unbounded: false,
      },
      false,
    ),
  },
];

export const ADDICTION_SQL: RenderedQuery[] = [
  {
    builder: 'addictionSql',
    inputs: `${rangeText}; Opened; weekly periods counted in days; merged ids`,
    query: addictionSql(scope, { event: 'Opened', ...range, unit: 'week', addictionUnit: 'day' }),
  },
  {
    builder: 'addictionSql',
    inputs: `${berlinText}; Opened; daily periods counted in hours; no merged id`,
    query: addictionSql(scope, { event: 'Opened', ...berlin, unit: 'day', addictionUnit: 'hour' }, false),
  },
];

export const SEGMENTATION_SQL: RenderedQuery[] = [
  {
    builder: 'segmentationSql',
    inputs: `${rangeText}; Opened, Paid; general; daily; limit 60; merged ids`,
    query: segmentationSql(scope, { events: ['Opened', 'Paid'], ...range, unit: 'day', type: 'general', limit: 60 }),
  },
  {
    builder: 'segmentationSql',
    inputs: `${rangeText}; Opened; unique; hourly; where plan = "pro"; on $browser, limit 60; no merged id`,
    query: segmentationSql(
      scope,
      {
        events: ['Opened'],
        ...range,
        unit: 'hour',
        type: 'unique',
        where: where('properties["plan"] == "pro"'),
        on: where('properties["$browser"]'),
        limit: 60,
      },
      false,
    ),
  },
  {
    builder: 'segmentationSql',
    inputs: `${berlinText}; Opened; general; hourly; limit 60; no merged id`,
    query: segmentationSql(scope, { events: ['Opened'], ...berlin, unit: 'hour', type: 'general', limit: 60 }, false),
  },
];

const amountSpec = {
  events: ['Paid'],
  ...range,
  unit: 'day' as const,
  type: 'general' as const,
  on: where('properties["amount"]'),
  limit: 60,
};

export const NUMERIC_BUCKETS_SQL: RenderedQuery[] = [
  {
    builder: 'numericRangeSql',
    inputs: `${rangeText}; Paid on amount; merged ids`,
    query: numericRangeSql(scope, amountSpec),
  },
  {
    builder: 'numericSlotsSql',
    inputs: `${rangeText}; Paid on amount, slots 5 wide; merged ids`,
    query: numericSlotsSql(scope, amountSpec, 5),
  },
];

export const NUMERIC_SUM_SQL: RenderedQuery[] = [
  {
    builder: 'numericSeriesSql',
    inputs: `${rangeText}; Paid; sum of amount; weekly; where plan = "pro"`,
    query: numericSeriesSql(scope, {
      event: 'Paid',
      ...range,
      unit: 'week',
      on: where('properties["amount"]'),
      where: where('properties["plan"] == "pro"'),
    }),
  },
];

export const INSIGHTS_SQL: RenderedQuery[] = [
  {
    builder: 'insightsSql',
    inputs: `${rangeText}; Opened total, Opened unique, Paid p90 of amount; daily; on plan, limit 5; merged ids, identity_lookup`,
    query: insightsSql(scope, {
      metrics: [
        { name: 'Opened', event: 'Opened', math: 'total' },
        { name: 'Opened (unique)', event: 'Opened', math: 'unique' },
        { name: 'Paid', event: 'Paid', math: 'p90', property: propertyExpression('property', 'amount') },
      ],
      ...range,
      unit: 'day',
      on: where('properties["plan"]'),
      limit: 5,
    }),
  },
  {
    builder: 'insightsSql',
    inputs: `${berlinText}; Opened total; monthly; no merged id`,
    query: insightsSql(
      scope,
      { metrics: [{ name: 'Opened', event: 'Opened', math: 'total' }], ...berlin, unit: 'month', limit: 60 },
      false,
    ),
  },
  {
    builder: 'insightsSql',
    inputs: `${rangeText}; Paid unique; daily; on user["plan"] (the profiles joined); merged ids`,
    query: insightsSql(scope, {
      metrics: [{ name: 'Paid', event: 'Paid', math: 'unique' }],
      ...range,
      unit: 'day',
      on: where('user["plan"]'),
      limit: 10,
    }),
  },
];

export const EVENT_CATALOG_SQL: RenderedQuery[] = [
  {
    builder: 'topEventNamesSql',
    inputs: 'project 1; general; limit 10; since 2024-03-03',
    query: topEventNamesSql(scope, 'general', 10, NOW_MS - 30 * 86_400_000),
  },
  {
    builder: 'topPropertiesSql',
    inputs: 'project 1; Opened; limit 10; since 2024-03-03',
    query: topPropertiesSql(scope, 'Opened', 10, NOW_MS - 30 * 86_400_000),
  },
  {
    builder: 'topPropertiesSql',
    inputs: 'project 1; every event; limit 2000; since 2024-03-03',
    query: topPropertiesSql(scope, undefined, 2000, NOW_MS - 30 * 86_400_000),
  },
  {
    builder: 'topValuesSql',
    inputs: 'project 1; Opened; values of $browser; limit 10; since 2024-03-03',
    query: topValuesSql(scope, 'Opened', where('properties["$browser"]'), 10, NOW_MS - 30 * 86_400_000),
  },
];

const behavior = { behavior: { event: 'Purchased', where: 'properties["amount"] > 10', min_count: 2, last_days: 30 } };

export const COHORT_MEMBERS_SQL: RenderedQuery[] = [
  {
    builder: 'cohortMembersSql',
    inputs: 'project 1; Purchased where amount > 10 at least twice in the last 30 days, at 2024-04-03; merged ids',
    query: renderChSql(cohortMembersSql(scope, behavior, NOW_MS)),
  },
  {
    builder: 'cohortMembersSql',
    inputs: 'project 1; profiles where plan = "pro", at 2024-04-03',
    query: renderChSql(cohortMembersSql(scope, { where: 'properties["plan"] == "pro"' }, NOW_MS)),
  },
  {
    builder: 'cohortCountSql',
    inputs: 'project 1; the behaviour cohort above; no merged id',
    query: cohortCountSql(scope, behavior, NOW_MS, false),
  },
];

export const PROFILE_CATALOG_SQL: RenderedQuery[] = [
  {
    builder: 'profilePropertiesSql',
    inputs: 'project 1; limit 2000',
    query: profilePropertiesSql(scope, 2000),
  },
  {
    builder: 'revenueSql',
    inputs: `${rangeText}; daily buckets`,
    query: revenueSql(
      scope,
      { kind: 'days', days: 1 },
      range.fromDay,
      range.fromDay * 86_400_000,
      (range.toDay + 1) * 86_400_000,
      TimeZone.UTC,
    ),
  },
  {
    builder: 'revenueSql',
    inputs: `${rangeText}; weeks`,
    query: revenueSql(
      scope,
      { kind: 'week' },
      range.fromDay,
      range.fromDay * 86_400_000,
      (range.toDay + 1) * 86_400_000,
      TimeZone.UTC,
    ),
  },
  { builder: 'userProfileCountSql', inputs: 'project 1', query: userProfileCountSql(scope) },
];

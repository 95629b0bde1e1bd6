import { ClickHouseDdl, insertFormattedSql } from '@analytics/clickhouse';
import { projectScope, renderChSql } from '@analytics/tenancy';
import type { RenderedQuery } from '../../../test/rendered-sql/rendered-query';
import { countEventsSql, deleteEventsSql, erasedEventsSql } from '../src/events-deletion-sql';
import { eventsInsert } from '../src/events.repository';
import { deleteExpiredSql, expiredMonthsSql } from '../src/events-retention-sql';
import { mergedIdExistsSql, resolvedEventsSql, resolvedUserKeysSql, storedEventsSql } from '../src/resolved-events-sql';

/** The event store's SQL for fixed inputs, committed as libs/event-store/sql/*.sql (npm run sql:render). */
const scope = projectScope(1);
/** The same project with a 30-day retention (docs/retention.md). */
const kept = projectScope(1, 30);

/** The writers' insert: over HTTP the statement, the lines its body. */
const insert = eventsInsert('', '0:0-99');
const settings = Object.entries(insert.settings ?? {})
  .map(([name, value]) => `${name} = ${JSON.stringify(value)}`)
  .join(', ');

export const EVENTS_INSERT_SQL: RenderedQuery[] = [
  {
    builder: 'EventsRepository.insert (eventsInsert)',
    inputs: `a batch of JSONEachRow lines in the body; dedup token 0:0-99; settings ${settings}`,
    query: { sql: insertFormattedSql(insert.table, insert.format), params: {} },
  },
];

export const RESOLVED_EVENTS_SQL: RenderedQuery[] = [
  {
    builder: 'resolvedEventsSql',
    inputs: 'project 1; ids resolved through identity_map (the join); a FROM source',
    query: renderChSql(resolvedEventsSql(scope)),
  },
  {
    builder: 'resolvedUserKeysSql',
    inputs: 'project 1; person keys through identity_lookup; a FROM source',
    query: renderChSql(resolvedUserKeysSql(scope)),
  },
  { builder: 'mergedIdExistsSql', inputs: 'project 1', query: renderChSql(mergedIdExistsSql(scope)) },
  {
    builder: 'resolvedEventsSql',
    inputs: 'project 1, events kept 30 days; ids resolved through identity_map (the join); a FROM source',
    query: renderChSql(resolvedEventsSql(kept)),
  },
  {
    builder: 'resolvedUserKeysSql',
    inputs: 'project 1, events kept 30 days; a FROM source',
    query: renderChSql(resolvedUserKeysSql(kept)),
  },
  {
    builder: 'storedEventsSql',
    inputs: 'project 1, events kept 30 days; deduplicated (FINAL); a FROM source (kept for ever: the table itself)',
    query: renderChSql(storedEventsSql(kept)),
  },
];

/** The retention sweep's statements (libs/retention runs them). */
const month = 202601;
const twoProjects = [
  { scope: kept, beforeMs: Date.parse('2026-01-15T00:00:00Z') },
  { scope: projectScope(2, 7), beforeMs: Date.parse('2026-02-01T00:00:00Z') },
];
export const EVENTS_RETENTION_SQL: RenderedQuery[] = [
  {
    builder: 'EventsRetentionRepository.expiredMonths (expiredMonthsSql)',
    inputs: 'project 1 before 2026-01-15, project 2 before 2026-02-01',
    query: expiredMonthsSql(twoProjects),
  },
  {
    builder: 'EventsRetentionRepository.deleteExpired (deleteExpiredSql)',
    inputs: 'January 2026; project 1 before 2026-01-15; cluster main',
    query: deleteExpiredSql(new ClickHouseDdl('main'), month, [
      { scope: kept, beforeMs: Date.parse('2026-01-15T00:00:00Z') },
    ]),
  },
  {
    builder: 'EventsRetentionRepository.deleteExpired (deleteExpiredSql)',
    inputs: 'January 2026; project 1 before 2026-01-15, project 2 before 2026-02-01; one server',
    query: deleteExpiredSql(new ClickHouseDdl(), month, twoProjects),
  },
];

/**
 * A GDPR/CCPA deletion's events (compliance runs it; a warehouse import's delete is in
 * libs/warehouse-imports/sql/, a retrieval's read in libs/compliance/sql/).
 */
const erased = erasedEventsSql({
  project: scope,
  distinctIds: ['device-1', 'user@example.com'],
  ingestedBefore: new Date('2024-04-01T12:00:00Z'),
});
const erasedInputs = 'project 1; ids device-1, user@example.com; ingested before 2024-04-01 12:00 UTC';

export const EVENTS_DELETION_SQL: RenderedQuery[] = [
  {
    builder: 'EventsDeletionRepository.delete (deleteEventsSql of erasedEventsSql)',
    inputs: `${erasedInputs}; one server`,
    query: deleteEventsSql(new ClickHouseDdl(), erased),
  },
  {
    builder: 'EventsDeletionRepository.delete (deleteEventsSql of erasedEventsSql)',
    inputs: `${erasedInputs}; cluster main`,
    query: deleteEventsSql(new ClickHouseDdl('main'), erased),
  },
  {
    builder: 'EventsDeletionRepository.count (countEventsSql of erasedEventsSql)',
    inputs: erasedInputs,
    query: countEventsSql(erased),
  },
];

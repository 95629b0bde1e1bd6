import { ClickHouseDdl, insertFormattedSql } from '@analytics/clickhouse';
import { projectScope, renderChSql } from '@analytics/tenancy';
import type { RenderedQuery } from '../../../test/rendered-sql/rendered-query';
import { countEventsSql, deleteEventsSql, erasedEventsSql } from '../src/events-deletion-sql';
import { eventsInsert } from '../src/events.repository';
import { mergedIdExistsSql, resolvedEventsSql, resolvedUserKeysSql } from '../src/resolved-events-sql';

/** The event store's SQL for fixed inputs, committed as libs/event-store/sql/*.sql (npm run sql:render). */
const scope = projectScope(1);

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

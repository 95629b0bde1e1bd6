import { insertFormattedSql } from '@analytics/clickhouse';
import { projectScope, renderChSql } from '@analytics/tenancy';
import type { RenderedQuery } from '../../../test/rendered-sql/rendered-query';
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
  { builder: 'EventsRepository.insert (eventsInsert)', inputs: `a batch of JSONEachRow lines in the body; dedup token 0:0-99; settings ${settings}`, query: { sql: insertFormattedSql(insert.table, insert.format), params: {} } },
];

export const RESOLVED_EVENTS_SQL: RenderedQuery[] = [
  { builder: 'resolvedEventsSql', inputs: 'project 1; ids resolved through identity_map (the join); a FROM source', query: renderChSql(resolvedEventsSql(scope)) },
  { builder: 'resolvedUserKeysSql', inputs: 'project 1; person keys through identity_lookup; a FROM source', query: renderChSql(resolvedUserKeysSql(scope)) },
  { builder: 'mergedIdExistsSql', inputs: 'project 1', query: renderChSql(mergedIdExistsSql(scope)) },
];

import { insertFormattedSql } from '@analytics/clickhouse';
import type { RenderedQuery } from '../../../test/rendered-sql/rendered-query';
import { eventsInsert } from '../src/events.repository';

/** The events writer's insert, committed as libs/event-writer/sql/ (npm run sql:render): over HTTP the statement, the lines its body. */
const insert = eventsInsert('', '0:0-99');
const settings = Object.entries(insert.settings ?? {})
  .map(([name, value]) => `${name} = ${JSON.stringify(value)}`)
  .join(', ');

export const EVENTS_INSERT_SQL: RenderedQuery[] = [
  { builder: 'EventsRepository.insert (eventsInsert)', inputs: `a batch of JSONEachRow lines in the body; dedup token 0:0-99; settings ${settings}`, query: { sql: insertFormattedSql(insert.table, insert.format), params: {} } },
];

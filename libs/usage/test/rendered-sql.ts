import { ClickHouseDdl } from '@analytics/clickhouse';
import { projectScope } from '@analytics/tenancy';
import type { RenderedQuery } from '../../../test/rendered-sql/rendered-query';
import { eventsDiskShareSql, eventsTableBytesSql, eventsUsageSql, storedEventsByProjectSql } from '../src/usage-sql';

/** The usage reads of the events table, committed as libs/usage/sql/usage-sql.sql (npm run sql:render). */
const scope = projectScope(1);

export const USAGE_SQL: RenderedQuery[] = [
  {
    builder: 'UsageRepository.events (eventsUsageSql)',
    inputs: 'project 1; per_day from 2026-01-01 to 2026-03-31',
    query: eventsUsageSql(scope, { from: '2026-01-01', to: '2026-03-31' }),
  },
  {
    builder: 'UsageRepository.bytesOnDisk (eventsDiskShareSql)',
    inputs: 'project 1; one server',
    query: eventsDiskShareSql(new ClickHouseDdl(), scope),
  },
  {
    builder: 'UsageRepository.bytesOnDisk (eventsDiskShareSql)',
    inputs: 'project 1; the cluster analytics (one replica of each shard)',
    query: eventsDiskShareSql(new ClickHouseDdl('analytics'), scope),
  },
  {
    builder: 'UsageRepository.storedEventsByProject (storedEventsByProjectSql)',
    inputs: 'every project (the gauges)',
    query: storedEventsByProjectSql(),
  },
  {
    builder: 'UsageRepository.eventsTableBytes (eventsTableBytesSql)',
    inputs: 'one server',
    query: eventsTableBytesSql(new ClickHouseDdl()),
  },
];

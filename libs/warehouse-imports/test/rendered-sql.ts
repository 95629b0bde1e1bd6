import { ClickHouseDdl } from '@analytics/clickhouse';
import { countEventsSql, deleteEventsSql } from '@analytics/event-store';
import { projectScope } from '@analytics/tenancy';
import type { RenderedQuery } from '../../../test/rendered-sql/rendered-query';
import { importedEventsSql } from '../src/imported-data.repository';

/** A warehouse import's ClickHouse statements for fixed inputs, committed as libs/warehouse-imports/sql/ (npm run sql:render). */
const scope = projectScope(1);

export const IMPORTED_DATA_SQL: RenderedQuery[] = [
  {
    builder: "ImportedDataRepository.deleteEvents (the event store's deleteEventsSql of importedEventsSql)",
    inputs: 'project 1; import 7; one server',
    query: deleteEventsSql(new ClickHouseDdl(), importedEventsSql(scope, 7)),
  },
  {
    builder: "ImportedDataRepository.countEvents (the event store's countEventsSql of importedEventsSql)",
    inputs: 'project 1; import 7',
    query: countEventsSql(importedEventsSql(scope, 7)),
  },
];

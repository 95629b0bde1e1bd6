import { ClickHouseDdl } from '@analytics/clickhouse';
import { projectScope } from '@analytics/tenancy';
import type { RenderedQuery } from '../../../test/rendered-sql/rendered-query';
import { countImportedEventsSql, deleteImportedEventsSql } from '../src/imported-data.repository';

/** A warehouse import's ClickHouse statements for fixed inputs, committed as libs/warehouse-imports/sql/ (npm run sql:render). */
const scope = projectScope(1);

export const IMPORTED_DATA_SQL: RenderedQuery[] = [
  { builder: 'ImportedDataRepository.deleteEvents (deleteImportedEventsSql)', inputs: 'project 1; import 7; one server', query: deleteImportedEventsSql(new ClickHouseDdl(), scope, 7) },
  { builder: 'ImportedDataRepository.countEvents (countImportedEventsSql)', inputs: 'project 1; import 7', query: countImportedEventsSql(scope, 7) },
];

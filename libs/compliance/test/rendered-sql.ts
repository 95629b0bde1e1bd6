import { ClickHouseDdl } from '@analytics/clickhouse';
import { EVENTS_TABLE } from '@analytics/event-store';
import { projectScope } from '@analytics/tenancy';
import type { RenderedQuery } from '../../../test/rendered-sql/rendered-query';
import { deleteRowsSql, remainingRowsSql } from '../src/deletion-sql';
import { DISTINCT_ID_TABLES } from '../src/distinct-id-tables';
import { retrievalFileSql, retrievalLinesSql } from '../src/retrieval-sql';

/** Compliance deletion's and retrieval's ClickHouse statements for fixed inputs, committed as libs/compliance/sql/ (npm run sql:render). */
const project = projectScope(1);
const deletion = {
  project,
  distinctIds: ['device-1', 'user@example.com'],
  ingestedBefore: new Date('2024-04-01T12:00:00Z'),
};
// The events table's rows are the event store's to delete (libs/event-store/sql/events-deletion-sql.sql).
const clickhouseTables = DISTINCT_ID_TABLES.filter(
  (table) => table.engine === 'clickhouse' && !table.kept && table.table !== EVENTS_TABLE,
);
const deletionInputs = 'project 1; ids device-1, user@example.com; ingested before 2024-04-01 12:00 UTC';

export const DELETION_SQL: RenderedQuery[] = [
  ...clickhouseTables.map((table) => ({
    builder: `DeletionRepository.delete (deleteRowsSql, ${table.table})`,
    inputs: `${deletionInputs}; one server`,
    query: deleteRowsSql(new ClickHouseDdl(), table, deletion),
  })),
  {
    builder: `DeletionRepository.delete (deleteRowsSql, ${clickhouseTables[0].table})`,
    inputs: `${deletionInputs}; cluster main`,
    query: deleteRowsSql(new ClickHouseDdl('main'), clickhouseTables[0], deletion),
  },
  ...clickhouseTables.map((table) => ({
    builder: `DeletionRepository.remaining (remainingRowsSql, ${table.table})`,
    inputs: deletionInputs,
    query: remainingRowsSql(table, deletion),
  })),
];

const retrieval = { project, distinctIds: ['device-1', 'user@example.com'], groupKeys: ['company'] };

export const RETRIEVAL_SQL: RenderedQuery[] = [
  {
    builder: 'RetrievalRepository.write (retrievalLinesSql)',
    inputs: 'project 1; Data; ids device-1, user@example.com; group key company',
    query: retrievalLinesSql({ ...retrieval, disclosureType: 'Data' }),
  },
  {
    builder: 'RetrievalRepository.write (retrievalLinesSql)',
    inputs: 'project 1; Data; the same ids; no group key',
    query: retrievalLinesSql({ ...retrieval, disclosureType: 'Data', groupKeys: [] }),
  },
  {
    builder: 'RetrievalRepository.write (retrievalLinesSql)',
    inputs: 'project 1; Categories (CCPA: since 2024-01-01); the same ids',
    query: retrievalLinesSql({ ...retrieval, disclosureType: 'Categories', since: new Date('2024-01-01T00:00:00Z') }),
  },
  {
    builder: 'RetrievalRepository.write (retrievalLinesSql)',
    inputs: 'project 1; Sources; the same ids',
    query: retrievalLinesSql({ ...retrieval, disclosureType: 'Sources' }),
  },
  {
    builder: 'RetrievalRepository.writeFile (retrievalFileSql)',
    inputs: 'chDB and the local folder; the Sources lines above into /data/.partial/retrieval.ndjson.gz',
    query: retrievalFileSql(
      '/data/.partial/retrieval.ndjson.gz',
      retrievalLinesSql({ ...retrieval, disclosureType: 'Sources' }),
    ),
  },
];

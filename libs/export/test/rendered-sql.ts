import { parseExpression } from '@analytics/expression';
import { projectScope } from '@analytics/tenancy';
import type { RenderedQuery } from '../../../test/rendered-sql/rendered-query';
import { compileExportFilter } from '../src/export-filter';
import { exportBucketsSql, exportPageSql } from '../src/export-sql';

/** The raw export's SQL for fixed inputs, committed as libs/export/sql/export.repository.sql (npm run sql:render). */
const scope = projectScope(1);
const request = { fromDate: '2024-03-01', toDate: '2024-03-31', events: ['Opened', 'Paid'], timeInMs: false };
const where = compileExportFilter(parseExpression('properties["plan"] == "pro"')).compiled;
const buckets: [string, string][] = [
  ['Opened', '2024-03-01'],
  ['Opened', '2024-03-02'],
  ['Paid', '2024-03-01'],
];

export const EXPORT_SQL: RenderedQuery[] = [
  {
    builder: 'ExportRepository.buckets (exportBucketsSql)',
    inputs: 'project 1; 2024-03-01 to 2024-03-31; events Opened, Paid; where plan = "pro"; ids as stored',
    query: exportBucketsSql(scope, request, where, false),
  },
  {
    builder: 'ExportRepository.page (exportPageSql)',
    inputs: 'project 1; the month above; a page of three (event, day) buckets; limit 1000; ids resolved',
    query: exportPageSql(scope, request, { buckets, rows: 3000, bytes: 300_000, where }, 1000),
  },
  {
    builder: 'ExportRepository.page (exportPageSql)',
    inputs: 'project 1; the month, all events, time in ms; share 2 of 4 of one big bucket; no limit; ids as stored',
    query: exportPageSql(
      scope,
      { ...request, events: undefined, timeInMs: true },
      { buckets: [['Opened', '2024-03-01']], share: { of: 4, index: 2 }, rows: 1e6, bytes: 1e8, resolve: false },
      undefined,
    ),
  },
];

import { ClickHouseDdl } from '@analytics/clickhouse';
import { LookupSource } from '@analytics/expression';
import { ChBoundQuery, chIdent, chParam, chSql, ProjectScope, renderChSql } from '@analytics/tenancy';
import { LookupRow } from './lookup-csv';
import { LOOKUP_TABLE_ROWS_TABLE } from './lookup-tables.tables';

const ROWS = chIdent(LOOKUP_TABLE_ROWS_TABLE);

/** One version of one table: the rows a replace wrote. */
export interface TableVersion {
  readonly tableId: string;
  readonly version: number;
}

/** JSONEachRow lines of a replace's rows, every one under the new version. */
export function lookupRowLines(scope: ProjectScope, { tableId, version }: TableVersion, rows: readonly LookupRow[]) {
  return rows
    .map((row) =>
      JSON.stringify({
        project_id: scope.projectId,
        table_id: tableId,
        version: String(version),
        key: row.key,
        row: JSON.stringify(row.values),
      }),
    )
    .join('\n');
}

/** Deletes the table's versions older than `before` (a replace's predecessor stays, for reports already under way). */
export function deleteOlderVersionsSql(ddl: ClickHouseDdl, scope: ProjectScope, tableId: string, before: number) {
  const where = renderChSql(
    chSql`${scope} AND table_id = ${chParam(tableId)} AND version < ${chParam(String(before), 'UInt64')}`,
  );
  return { sql: ddl.deleteRows(LOOKUP_TABLE_ROWS_TABLE, where.sql), params: where.params };
}

/** Deletes every version of the table (the table itself is deleted). */
export function deleteTableRowsSql(ddl: ClickHouseDdl, scope: ProjectScope, tableId: string): ChBoundQuery {
  const where = renderChSql(chSql`${scope} AND table_id = ${chParam(tableId)}`);
  return { sql: ddl.deleteRows(LOOKUP_TABLE_ROWS_TABLE, where.sql), params: where.params };
}

/** How many rows a version holds (tests, and the check after a write). */
export function countVersionRowsSql(scope: ProjectScope, { tableId, version }: TableVersion): ChBoundQuery {
  return renderChSql(
    chSql`SELECT count() AS n FROM ${ROWS} WHERE ${scope} AND table_id = ${chParam(tableId)} AND version = ${chParam(String(version), 'UInt64')}`,
  );
}

/**
 * The current rows of one table as the expression compiler reads a lookup (`key`, `row`): rendered
 * here, with the tenant predicate the tag writes, its placeholders named `lk<n>p…` so that it can
 * sit, compiled, inside a report's own query.
 */
export function lookupSourceSql(scope: ProjectScope, current: TableVersion, n: number): LookupSource {
  const rendered = renderChSql(
    chSql`SELECT key, row FROM ${ROWS} WHERE ${scope} AND table_id = ${chParam(current.tableId)} AND version = ${chParam(String(current.version), 'UInt64')}`,
    { placeholderPrefix: `lk${n}p` },
  );
  // The compiler's parameters are text; ClickHouse parses numbers from it.
  const params = Object.fromEntries(Object.entries(rendered.params).map(([name, value]) => [name, String(value)]));
  return { rows: rendered.sql, params };
}

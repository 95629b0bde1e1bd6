import { ClickHouseDdl } from '@analytics/clickhouse';
import {
  ChBoundQuery,
  chCompiled,
  chIdent,
  chParam,
  ChSql,
  chSql,
  ProjectScope,
  renderChSql,
} from '@analytics/tenancy';
import { DistinctIdTable } from './distinct-id-tables';

/** What a deletion removes: the ids' rows of one project, events only up to the ingestion bound (the event store's `ErasedEvents`). */
export interface DeletionScope {
  project: ProjectScope;
  distinctIds: string[];
  /** Rows ingested (`processed_at`) before this are deleted; later ones are kept. */
  ingestedBefore: Date;
}

/** The scope's rows of a ClickHouse table; the registry's names and predicates are constants of this lib, never user input. */
function scopeRows(table: DistinctIdTable, scope: DeletionScope): ChSql {
  return chSql`${scope.project} AND ${chIdent(table.column)} IN ${chParam(scope.distinctIds)}${table.where ? chSql` AND ${chCompiled(table.where)}` : chSql``}`;
}

/**
 * A lightweight `DELETE` of the scope's rows of a ClickHouse table of the registry (on each shard's
 * local table on a cluster); the events table's are the event store's (`erasedEventsSql`).
 */
export function deleteRowsSql(ddl: ClickHouseDdl, table: DistinctIdTable, scope: DeletionScope): ChBoundQuery {
  const where = renderChSql(scopeRows(table, scope));
  return { sql: ddl.deleteRows(table.table, where.sql), params: where.params };
}

/** How many of the scope's rows the table still stores (without FINAL: every copy counts). */
export function remainingRowsSql(table: DistinctIdTable, scope: DeletionScope): ChBoundQuery {
  return renderChSql(chSql`SELECT count() AS n FROM ${chIdent(table.table)} WHERE ${scopeRows(table, scope)}`);
}

import { clickhouseDateTime, ClickHouseDdl } from '@analytics/clickhouse';
import { ChBoundQuery, chIdent, chParam, ChSql, chSql, ProjectScope, renderChSql } from '@analytics/tenancy';
import { EVENTS_TABLE } from './events-table';
import { keptEventsSql } from './resolved-events-sql';

const EVENTS = chIdent(EVENTS_TABLE);

/** The events of some people a GDPR/CCPA deletion removes: the ids' rows of the project ingested before the request. */
export interface ErasedEvents {
  project: ProjectScope;
  distinctIds: string[];
  /** Rows ingested (`processed_at`, when the gateway accepted them) before this go; later ones are kept. */
  ingestedBefore: Date;
}

/** The WHERE of the erased rows: every copy, duplicates not yet merged included (no FINAL). */
export function erasedEventsSql({ project, distinctIds, ingestedBefore }: ErasedEvents): ChSql {
  const bound = chParam(clickhouseDateTime(ingestedBefore), "DateTime64(3, 'UTC')");
  return chSql`${project} AND distinct_id IN ${chParam(distinctIds)} AND processed_at < ${bound}`;
}

/**
 * A lightweight `DELETE` of the events `where` selects (on each shard's local table on a cluster).
 * `where` is a `chSql` fragment, so it holds its project's predicate: a deletion's
 * (`erasedEventsSql`) or a warehouse import's.
 */
export function deleteEventsSql(ddl: ClickHouseDdl, where: ChSql): ChBoundQuery {
  const rendered = renderChSql(where);
  return { sql: ddl.deleteRows(EVENTS_TABLE, rendered.sql), params: rendered.params };
}

/** How many of the events `where` selects are still stored (without FINAL: every copy counts). */
export function countEventsSql(where: ChSql): ChBoundQuery {
  return renderChSql(chSql`SELECT count() AS n FROM ${EVENTS} WHERE ${where}`);
}

/**
 * Where a retrieval reads the people's events, as `FROM … WHERE …` (deduplicated): the ids and the
 * CCPA start come from the named placeholders `{ids:Array(String)}` and `{since:DateTime64(3, 'UTC')}`,
 * bound once for every part of the retrieval that reads them (an expansion can hold thousands of ids).
 * Events older than the project's retention are not retrieved (docs/retention.md).
 */
export function retrievedEventsSql(project: ProjectScope): ChSql {
  return chSql`FROM ${EVENTS} FINAL WHERE ${keptEventsSql(project)} AND distinct_id IN {ids:Array(String)} AND time >= {since:DateTime64(3, 'UTC')}`;
}

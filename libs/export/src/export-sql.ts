import { exportedEventLineSql, resolvedEventsSql } from '@analytics/event-store';
import { CompiledSql } from '@analytics/expression';
import { ChBoundQuery, chCompiled, chJoin, chParam, ChSql, chSql, ProjectScope, renderChSql } from '@analytics/tenancy';
import { ExportRequest } from './export-request';

/** One query's worth of the export: some whole buckets, or a hash share of a big one. */
export interface ExportPage {
  buckets: [string, string][];
  share?: { of: number; index: number };
  rows: number;
  /** Estimated output bytes. */
  bytes: number;
  /** Whether ids are resolved through identity_map (the default): `plan` clears it until the project has a merged id. */
  resolve?: boolean;
  /** The `where` as planned (ids it compares `distinct_id` with resolved to their person's: export-filter.ts); none without one. */
  where?: CompiledSql;
}

/** Above this many events in a page, one range each would make a long OR; a key list is used instead. */
const MAX_RANGES = 32;

function exportFilter(scope: ProjectScope, request: ExportRequest, where: CompiledSql | undefined): ChSql {
  const from = chParam(`${request.fromDate} 00:00:00.000`, "DateTime64(3, 'UTC')");
  const to = chParam(`${request.toDate} 23:59:59.999`, "DateTime64(3, 'UTC')");
  const events = request.events ? chSql` AND event IN ${chParam(request.events)}` : chSql``;
  return chSql`${scope} AND time >= ${from} AND time <= ${to}${events}${where ? chSql` AND ${chCompiled(where.sql, where.params)}` : chSql``}`;
}

/**
 * Deduplicated row counts and stored sizes per (event, day), in sort-key order. `resolve`: the
 * filter reads `distinct_id`, so the rows are counted as the pages read them, with ids resolved
 * (a person's events sent under another id of hers are on other days); otherwise as stored, which
 * counts the same rows without the join.
 */
export function exportBucketsSql(
  scope: ProjectScope,
  request: ExportRequest,
  where: CompiledSql | undefined,
  resolve: boolean,
): ChBoundQuery {
  return renderChSql(
    chSql`SELECT event, toString(toDate(time)) AS day, count() AS rows, sum(length(properties)) AS bytes FROM ${resolvedEventsSql(scope, resolve)} WHERE ${exportFilter(scope, request, where)} GROUP BY event, day ORDER BY event, day`,
  );
}

/** The page's exported events, one line each (read as TabSeparatedRaw). */
export function exportPageSql(
  scope: ProjectScope,
  request: ExportRequest,
  page: ExportPage,
  limit: number | undefined,
): ChBoundQuery {
  // A page holds consecutive (event, day) buckets, so per event it is one range of days: ranges on
  // the sort key's prefix, which the primary index prunes to the page's own granules.
  const days = new Map<string, { from: string; to: string }>();
  for (const [event, day] of page.buckets) {
    const range = days.get(event);
    if (!range) days.set(event, { from: day, to: day });
    else if (day > range.to) range.to = day;
    else if (day < range.from) range.from = day;
  }
  let where: ChSql;
  if (days.size <= MAX_RANGES) {
    const ranges = [...days].map(
      ([event, { from, to }]) =>
        chSql`(event = ${chParam(event)} AND toDate(time) BETWEEN ${chParam(from, 'Date')} AND ${chParam(to, 'Date')})`,
    );
    where = chSql`${exportFilter(scope, request, page.where)} AND (${chJoin(ranges, chSql` OR `)})`;
  } else {
    // Many small events: the event list still prunes, the keys pick the exact (event, day) pairs.
    const keys = page.buckets.map(([event, day]) => `${event}|${day}`);
    where = chSql`${exportFilter(scope, request, page.where)} AND event IN ${chParam([...days.keys()])} AND concat(event, '|', toString(toDate(time))) IN ${chParam(keys)}`;
  }
  if (page.share)
    where = chSql`${where} AND cityHash64(distinct_id) % ${chParam(page.share.of, 'UInt32')} = ${chParam(page.share.index, 'UInt32')}`;
  const resolve = page.resolve ?? true;
  // Ids resolved to the person's canonical id (docs/identity.md); the buckets above count the same rows unresolved.
  return renderChSql(
    chSql`SELECT ${chCompiled(exportedEventLineSql(request.timeInMs, resolve))} FROM ${resolvedEventsSql(scope, resolve)} WHERE ${where}${limit === undefined ? chSql`` : chSql` LIMIT ${chParam(limit, 'UInt32')}`}`,
  );
}

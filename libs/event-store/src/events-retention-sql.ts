import { ClickHouseDdl } from '@analytics/clickhouse';
import { ChBoundQuery, chIdent, chParam, chScopes, ChSql, chSql, ProjectScope, renderChSql } from '@analytics/tenancy';
import { EVENTS_TABLE } from './events-table';

/**
 * The retention sweep's statements (docs/retention.md). The events table is partitioned by month
 * (`toYYYYMM(time)`), so the sweep works a month at a time: one mutation per month that holds expired
 * events rewrites only that month's parts that hold some.
 */

/** A month as the partition key writes it: 202601 for January 2026. */
export type EventsMonth = number;

/** One project's events older than `beforeMs` are expired. */
export interface ExpiredBefore {
  scope: ProjectScope;
  beforeMs: number;
}

const EVENTS = chIdent(EVENTS_TABLE);
const PARTITION = /^\d{6}$/;

/** A month is a partition's literal in DDL (no placeholder there): checked to be six digits. */
function monthLiteral(month: EventsMonth): string {
  const text = String(month);
  if (!PARTITION.test(text)) throw new RangeError(`not a month of the events table's partitions: ${month}`);
  return text;
}

/** The rows the sweep removes: each project's events older than its own line, in one predicate. */
function expiredSql(expired: readonly ExpiredBefore[]): ChSql {
  const ids = expired.map((e) => e.scope.projectId);
  const before = expired.map((e) => e.beforeMs);
  // Each row's own project's line; a project without one gets 0 (1970), so none of its rows match.
  return chSql`${chScopes(expired.map((e) => e.scope))} AND toUnixTimestamp64Milli(time) < arrayElement(${chParam(before, 'Array(Int64)')}, indexOf(${chParam(ids, 'Array(UInt32)')}, project_id))`;
}

/** Which projects still store expired events in which months (every copy: no FINAL), in one read for them all. */
export function expiredMonthsSql(expired: readonly ExpiredBefore[]): ChBoundQuery {
  return renderChSql(
    chSql`SELECT DISTINCT project_id, toYYYYMM(time) AS month FROM ${EVENTS} WHERE ${expiredSql(expired)} ORDER BY month, project_id`,
    { acrossProjects: 'the retention sweep finds every project with a retention in one read' },
  );
}

/**
 * Deletes the expired events of several projects in one month with one mutation: ClickHouse rewrites
 * only that month's parts that hold such rows (the others keep their files), so a day's sweep costs
 * at most the parts of the months it touches, never the table.
 */
export function deleteExpiredSql(
  ddl: ClickHouseDdl,
  month: EventsMonth,
  expired: readonly ExpiredBefore[],
): ChBoundQuery {
  const where = renderChSql(expiredSql(expired), {
    acrossProjects: 'one mutation deletes the expired events of every project with a retention in this month',
  });
  return {
    sql: ddl.alterTable(EVENTS_TABLE, `DELETE IN PARTITION ${monthLiteral(month)} WHERE ${where.sql}`),
    params: where.params,
  };
}

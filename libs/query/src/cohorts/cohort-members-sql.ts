import { resolvedEventsSql } from '@analytics/event-store';
import { compileWhere, ExpressionError, profilesScope } from '@analytics/expression';
import { NO_LOOKUPS, ReportLookups } from '@analytics/lookup-tables';
import { userProfilesSql } from '@analytics/profile-store';
import { CohortBehavior, CohortDefinition, isBehaviorCohort } from '@analytics/report-definitions';
import { ChBoundQuery, chCompiled, chParam, chSql, ChSql, ProjectScope, renderChSql } from '@analytics/tenancy';
import { parseEventExpression, whereSql, withLookups } from '../expressions/query-expressions';
import { QueryError, QueryErrorCode } from '../query-error';
import { TimeZone } from '../time/time-zone';

/**
 * Its values are the tag's placeholders, named when the whole query renders, and the expression's
 * parameters start with `cohort…`: the SQL composes into another query (the profile query's filter_by_cohort).
 */
function behaviorMembersSql(
  scope: ProjectScope,
  behavior: CohortBehavior,
  nowMs: number,
  resolve: boolean,
  lookups: ReportLookups,
): ChSql {
  const where = behavior.where
    ? whereSql(
        withLookups(parseEventExpression('definition.behavior.where', behavior.where), lookups.events),
        'cohortw',
      )
    : { sql: '1', params: {} };
  // The last N days of the project's zone, today included.
  const zone = TimeZone.of(scope.timeZone);
  const sinceMs = zone.dayStartMs(zone.dayOf(nowMs) - behavior.last_days + 1);
  // Nothing after the time membership is read at: a paged session's members stay put.
  return chSql`SELECT distinct_id FROM ${resolvedEventsSql(scope, resolve)}
      WHERE ${scope} AND event = ${chParam(behavior.event)}
        AND time >= fromUnixTimestamp64Milli(${chParam(sinceMs)}, 'UTC') AND time <= fromUnixTimestamp64Milli(${chParam(nowMs)}, 'UTC') AND ${chCompiled(where.sql, where.params)}
      GROUP BY distinct_id HAVING count() >= ${chParam(behavior.min_count, 'UInt64')}`;
}

function profileMembersSql(scope: ProjectScope, where: string, nowMs: number, lookups: ReportLookups): ChSql {
  let compiled;
  try {
    compiled = compileWhere(where, profilesScope('properties', lookups.profiles), { prefix: 'cohortp' });
  } catch (error) {
    if (error instanceof ExpressionError)
      throw new QueryError(QueryErrorCode.InvalidExpression, `definition.where: ${error.message}`);
    throw error;
  }
  return chSql`SELECT profile_id AS distinct_id ${userProfilesSql(scope)} AND is_deleted = 0
        AND created_at <= fromUnixTimestamp64Milli(${chParam(nowMs)}, 'UTC') AND ${chCompiled(compiled.sql, compiled.params)}`;
}

/**
 * `SELECT distinct_id …` of the cohort's members at `nowMs` (events and profiles up to then): a
 * fragment to compose into another query. `resolve`: whether events' ids go through identity_map
 * (QueryRunner.resolvesIdentities).
 */
export function cohortMembersSql(
  scope: ProjectScope,
  definition: CohortDefinition,
  nowMs: number,
  resolve = true,
  lookups: ReportLookups = NO_LOOKUPS,
): ChSql {
  return isBehaviorCohort(definition)
    ? behaviorMembersSql(scope, definition.behavior, nowMs, resolve, lookups)
    : profileMembersSql(scope, definition.where, nowMs, lookups);
}

/** How many members the cohort has at `nowMs`. */
export function cohortCountSql(
  scope: ProjectScope,
  definition: CohortDefinition,
  nowMs: number,
  resolve: boolean,
  lookups: ReportLookups = NO_LOOKUPS,
): ChBoundQuery {
  return renderChSql(
    chSql`SELECT count() AS members FROM (${cohortMembersSql(scope, definition, nowMs, resolve, lookups)})`,
  );
}

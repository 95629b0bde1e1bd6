import { PROFILES_TABLE } from '@analytics/clickhouse';
import { resolvedEventsSql } from '@analytics/identity';
import { compileWhere, ExpressionError, profilesScope } from '@analytics/expression';
import { CohortBehavior, CohortDefinition, isBehaviorCohort } from '@analytics/report-definitions';
import { BoundQuery } from '../clickhouse/query-runner';
import { parseEventExpression, whereSql } from '../expressions/query-expressions';
import { QueryError, QueryErrorCode } from '../query-error';
import { DAY_MS, today } from '../time/utc-days';

/** Parameter names start with `cohort` so the SQL can sit inside another query (the profile query's filter_by_cohort). */
function behaviorMembersSql(projectId: number, behavior: CohortBehavior, nowMs: number, resolve: boolean): BoundQuery {
  const where = behavior.where ? whereSql(parseEventExpression('definition.behavior.where', behavior.where), 'cohortw') : { sql: '1', params: {} };
  return {
    sql: `SELECT distinct_id FROM ${resolvedEventsSql('cohortProject', resolve)}
      WHERE project_id = {cohortProject:UInt32} AND event = {cohortEvent:String}
        AND time >= fromUnixTimestamp64Milli({cohortSinceMs:Int64}, 'UTC') AND time <= fromUnixTimestamp64Milli({cohortAsOfMs:Int64}, 'UTC') AND ${where.sql}
      GROUP BY distinct_id HAVING count() >= {cohortMinCount:UInt64}`,
    params: {
      ...where.params,
      cohortProject: projectId,
      cohortEvent: behavior.event,
      // The last N UTC days, today included.
      cohortSinceMs: (today(nowMs) - behavior.last_days + 1) * DAY_MS,
      // Nothing after the time membership is read at: a paged session's members stay put.
      cohortAsOfMs: nowMs,
      cohortMinCount: behavior.min_count,
    },
  };
}

function profileMembersSql(projectId: number, where: string, nowMs: number): BoundQuery {
  let compiled;
  try {
    compiled = compileWhere(where, profilesScope('properties'), { prefix: 'cohortp' });
  } catch (error) {
    if (error instanceof ExpressionError) throw new QueryError(QueryErrorCode.InvalidExpression, `definition.where: ${error.message}`);
    throw error;
  }
  return {
    sql: `SELECT profile_id AS distinct_id FROM ${PROFILES_TABLE} FINAL
      WHERE project_id = {cohortProject:UInt32} AND group_key = '' AND is_deleted = 0
        AND created_at <= fromUnixTimestamp64Milli({cohortAsOfMs:Int64}, 'UTC') AND ${compiled.sql}`,
    params: { ...compiled.params, cohortProject: projectId, cohortAsOfMs: nowMs },
  };
}

/**
 * `SELECT distinct_id …` of the cohort's members at `nowMs` (events and profiles up to then): a
 * subquery with its own bound parameters. `resolve`: whether events' ids go through identity_map
 * (QueryRunner.resolvesIdentities).
 */
export function cohortMembersSql(projectId: number, definition: CohortDefinition, nowMs: number, resolve = true): BoundQuery {
  return isBehaviorCohort(definition) ? behaviorMembersSql(projectId, definition.behavior, nowMs, resolve) : profileMembersSql(projectId, definition.where, nowMs);
}

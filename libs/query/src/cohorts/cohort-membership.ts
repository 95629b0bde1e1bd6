import { CohortDefinition } from '@analytics/report-definitions';
import { SavedReport, SavedReportsService } from '@analytics/reports';
import { Injectable } from '@nestjs/common';
import { BoundQuery, QueryRunner } from '../clickhouse/query-runner';
import { Clock } from '@analytics/clock';
import { cohortMembersSql } from './cohort-members-sql';

/**
 * Who is in a cohort. For the profile query's `filter_by_cohort`: `membersQuery` gives a
 * `SELECT distinct_id` subquery whose parameters are all named `cohort…`, to use as
 * `profile_id IN (<sql>)` (or to join) with the params merged into the outer query's.
 */
@Injectable()
export class CohortMembership {
  constructor(
    private readonly reports: SavedReportsService,
    private readonly runner: QueryRunner,
    private readonly clock: Clock,
  ) {}

  /**
   * The saved cohort's members as of `asOfMs` (now by default): events up to then, profiles created
   * by then. Throws the reports lib's 404 when the project has no such cohort.
   */
  async membersQuery(projectId: number, cohortId: number, asOfMs: number = this.clock.now()): Promise<BoundQuery> {
    const cohort = await this.reports.get(projectId, 'cohort', cohortId);
    return this.definitionMembersQuery(projectId, cohort.definition, asOfMs);
  }

  /** The same for a definition that is not saved (the profile query's `raw_cohort`); it must be validated already. */
  async definitionMembersQuery(projectId: number, definition: CohortDefinition, asOfMs: number = this.clock.now()): Promise<BoundQuery> {
    return cohortMembersSql(projectId, definition, asOfMs, await this.runner.resolvesIdentities(projectId));
  }

  /** Whether the project's cohorts resolve ids (one check for a list of cohorts). */
  resolvesIdentities(projectId: number, signal?: AbortSignal): Promise<boolean> {
    return this.runner.resolvesIdentities(projectId, signal);
  }

  async count(cohort: SavedReport<'cohort'>, resolve: boolean, signal?: AbortSignal): Promise<number> {
    const members = cohortMembersSql(cohort.projectId, cohort.definition, this.clock.now(), resolve);
    const [row] = await this.runner.rows<{ members: number }>({ sql: `SELECT count() AS members FROM (${members.sql})`, params: members.params }, signal);
    return Number(row?.members ?? 0);
  }
}

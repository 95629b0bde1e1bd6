import { LookupTablesReader } from '@analytics/lookup-tables';
import { CohortDefinition } from '@analytics/report-definitions';
import { SavedReport, SavedReportsService } from '@analytics/reports';
import { ChSql, ProjectScope } from '@analytics/tenancy';
import { Injectable } from '@nestjs/common';
import { QueryRunner } from '../clickhouse/query-runner';
import { Clock } from '@analytics/clock';
import { cohortCountSql, cohortMembersSql } from './cohort-members-sql';

/**
 * Who is in a cohort. For the profile query's `filter_by_cohort`: `membersQuery` gives a
 * `SELECT distinct_id` fragment to use as `profile_id IN (${members})` (or to join) in the outer query.
 */
@Injectable()
export class CohortMembership {
  constructor(
    private readonly reports: SavedReportsService,
    private readonly runner: QueryRunner,
    private readonly clock: Clock,
    private readonly lookupTables: LookupTablesReader,
  ) {}

  /**
   * The saved cohort's members as of `asOfMs` (now by default): events up to then, profiles created
   * by then. Throws the reports lib's 404 when the project has no such cohort.
   */
  async membersQuery(scope: ProjectScope, cohortId: number, asOfMs: number = this.clock.now()): Promise<ChSql> {
    const cohort = await this.reports.get(scope, 'cohort', cohortId);
    return this.definitionMembersQuery(scope, cohort.definition, asOfMs);
  }

  /** The same for a definition that is not saved (the profile query's `raw_cohort`); it must be validated already. */
  async definitionMembersQuery(
    scope: ProjectScope,
    definition: CohortDefinition,
    asOfMs: number = this.clock.now(),
  ): Promise<ChSql> {
    const [resolve, lookups] = await Promise.all([
      this.runner.resolvesIdentities(scope),
      this.lookupTables.lookups(scope),
    ]);
    return cohortMembersSql(scope, definition, asOfMs, resolve, lookups);
  }

  /** Whether the project's cohorts resolve ids (one check for a list of cohorts). */
  resolvesIdentities(scope: ProjectScope, signal?: AbortSignal): Promise<boolean> {
    return this.runner.resolvesIdentities(scope, signal);
  }

  /** How many members one of the project's saved cohorts has now. */
  async count(
    scope: ProjectScope,
    cohort: SavedReport<'cohort'>,
    resolve: boolean,
    signal?: AbortSignal,
  ): Promise<number> {
    const [row] = await this.runner.rows<{ members: number }>(
      cohortCountSql(scope, cohort.definition, this.clock.now(), resolve, await this.lookupTables.lookups(scope)),
      signal,
    );
    return Number(row?.members ?? 0);
  }
}

import { AppConfig } from '@analytics/config';
import { parseJson } from '@analytics/events';
import { CompiledSql, compileWhere, ExpressionError, LookupSource, profilesScope } from '@analytics/expression';
import { LookupTablesReader } from '@analytics/lookup-tables';
import { IdentityRepository } from '@analytics/identity';
import { Properties, USER_PROFILES } from '@analytics/profile-updates';
import { CohortMembers, MirroredProperties, MirrorQuery, ProfilesMirrorRepository } from '@analytics/profile-store';
import { ProjectScope } from '@analytics/tenancy';
import { Injectable } from '@nestjs/common';
import { CohortMembership } from '../cohorts/cohort-membership';
import { ProfileQueryRequest } from './profile-query-request';
import { ProfilesError, ProfilesErrorCode } from './profiles-error';

export interface ProfileQueryResult {
  page: number;
  page_size: number;
  session_id: string;
  status: 'ok';
  total: number;
  results: { $distinct_id: string; $properties: Properties }[];
}

/**
 * The profile query (`/api/query/engage`), read from the ClickHouse mirror: the `where` language
 * compiles to ClickHouse SQL, and it keeps the query load off Postgres. The mirror trails the
 * writer by one batch (under a second); without a broker it is written before updates are answered.
 * Like the query API's reports, it runs under QUERY_MAX_EXECUTION_SECONDS and stops when `signal`
 * aborts (the client went away). `filter_by_cohort` reads the cohort's members as of the session's
 * snapshot, with the query lib's membership SQL.
 */
@Injectable()
export class ProfileQueryService {
  constructor(
    private readonly mirror: ProfilesMirrorRepository,
    private readonly config: AppConfig,
    private readonly membership: CohortMembership,
    private readonly identities: IdentityRepository,
    private readonly lookupTables: LookupTablesReader,
  ) {}

  async query(scope: ProjectScope, request: ProfileQueryRequest, signal?: AbortSignal): Promise<ProfileQueryResult> {
    // Independent reads (ClickHouse for the ids, Postgres for the cohort): at once.
    const [profileIds, cohort, lookups] = await Promise.all([
      this.canonicalIds(scope, request),
      this.cohortMembers(scope, request),
      this.lookupTables.lookups(scope),
    ]);
    // Lookup tables map user profiles' properties, not group profiles'.
    const profileLookups = request.groupKey === USER_PROFILES ? lookups.profiles : undefined;
    const query: MirrorQuery = {
      scope,
      groupKey: request.groupKey,
      snapshotMs: request.snapshotMs,
      profileIds,
      where: request.where === undefined ? undefined : compile(request.where, profileLookups),
      cohort,
    };
    const { maxExecutionSeconds, maxMemoryBytes } = this.config.query;
    const limits = { maxExecutionSeconds, maxMemoryBytes, signal };
    const [total, rows] = await Promise.all([
      this.mirror.count(query, limits),
      this.mirror.page(query, request.page * request.pageSize, request.pageSize, limits),
    ]);
    return {
      page: request.page,
      page_size: request.pageSize,
      session_id: request.sessionId,
      status: 'ok',
      total,
      results: rows.map((row) => result(row, request.outputProperties)),
    };
  }

  /**
   * `distinct_id(s)` may name any id of a person: each is read as its cluster's canonical id (one
   * query for all), whose one profile answers under that id, as the real API answers (docs/identity.md).
   */
  private async canonicalIds(scope: ProjectScope, request: ProfileQueryRequest): Promise<string[] | undefined> {
    const { profileIds, groupKey } = request;
    if (!profileIds || groupKey !== USER_PROFILES) return profileIds;
    const canonical = await this.identities.resolve(scope, profileIds);
    return [...new Set(profileIds.map((id) => canonical.get(id) ?? id))];
  }

  /** An unknown cohort, or another project's, answers the reports lib's 404. */
  private async cohortMembers(scope: ProjectScope, request: ProfileQueryRequest): Promise<CohortMembers | undefined> {
    const { cohort } = request;
    if (!cohort) return undefined;
    const members =
      'id' in cohort
        ? await this.membership.membersQuery(scope, cohort.id, request.snapshotMs)
        : await this.membership.definitionMembersQuery(scope, cohort.definition, request.snapshotMs);
    return { members, includeAllUsers: request.includeAllUsers };
  }
}

function compile(where: string, lookups: Readonly<Record<string, LookupSource>> | undefined): CompiledSql {
  try {
    return compileWhere(where, profilesScope('properties', lookups), { prefix: 'where' });
  } catch (error) {
    if (error instanceof ExpressionError)
      throw new ProfilesError(ProfilesErrorCode.InvalidQuery, `where: ${error.message}`);
    throw error;
  }
}

/** `output_properties` keeps only the named properties (those the profile has). */
function result(row: MirroredProperties, outputProperties: string[] | undefined) {
  const properties = parseJson(row.properties) as Properties;
  const $properties = outputProperties
    ? Object.fromEntries(
        outputProperties.filter((name) => Object.hasOwn(properties, name)).map((name) => [name, properties[name]]),
      )
    : properties;
  return { $distinct_id: row.profile_id, $properties };
}

import { insertFormattedSql } from '@analytics/clickhouse';
import { CompiledSql } from '@analytics/expression';
import {
  ChBoundQuery,
  chCompiled,
  chIdent,
  chJoin,
  chParam,
  ChSql,
  chSql,
  ProjectScope,
  renderChSql,
} from '@analytics/tenancy';
import { PROFILES_MIRROR_TABLE } from './profiles-tables';

/** The mirror's statements, built apart from the client so that they render without I/O (libs/profile-store/sql/). */

const PROFILES = chIdent(PROFILES_MIRROR_TABLE);
const AND = chSql` AND `;

/** The properties go in as JSONEachRow lines (the body of the insert). */
export const PROFILES_MIRROR_INSERT = insertFormattedSql(PROFILES_MIRROR_TABLE, 'JSONEachRow');

/**
 * The read source of the project's user profiles, the live version of each (`FROM …`, to extend
 * with `AND …`): what a pipeline's people export and a compliance retrieval read.
 */
export const userProfilesSql = (scope: ProjectScope): ChSql =>
  chSql`FROM ${PROFILES} FINAL WHERE ${scope} AND group_key = ''`;

/** One page of the profile query. Every query is scoped to a project and a kind of profile. */
export interface MirrorQuery {
  scope: ProjectScope;
  /** '' for user profiles. */
  groupKey: string;
  /** Only profiles created up to this time: later ones never shift a session's pages. */
  snapshotMs: number;
  profileIds?: string[];
  /** A compiled `where`, whose SQL reads the `properties` column. */
  where?: CompiledSql;
  /** Only a cohort's members (user profiles). */
  cohort?: CohortMembers;
}

/** A cohort's members as a `SELECT distinct_id` subquery (the query lib's CohortMembership). */
export interface CohortMembers {
  members: ChSql;
  /** Members without a profile count too, with empty properties. */
  includeAllUsers: boolean;
}

/**
 * What a page reads (`profile_id`, `properties`) and its conditions. The project predicate is
 * always first; the `where` comes compiled, with its own bound parameters, the cohort as a fragment.
 * With every user of a cohort, the members are the rows and their profiles (as of the snapshot)
 * are joined on, `{}` where there is none.
 */
function mirrorFilter(query: MirrorQuery): { source: ChSql; conditions: ChSql } {
  const profiles = [
    chSql`${query.scope}`,
    chSql`group_key = ${chParam(query.groupKey)}`,
    chSql`created_at <= fromUnixTimestamp64Milli(${chParam(query.snapshotMs)}, 'UTC')`,
  ];
  let source = chSql`${PROFILES} FINAL`;
  let conditions = profiles;
  if (query.cohort) {
    const { members } = query.cohort;
    if (query.cohort.includeAllUsers) {
      // Only the members' profiles on the joined (in-memory) side, never the whole project's.
      source = chSql`(SELECT member.distinct_id AS profile_id, if(profile.found = 1, profile.properties_json, '{}') AS properties FROM (${members}) AS member LEFT JOIN (SELECT profile_id AS id, properties AS properties_json, 1 AS found FROM ${PROFILES} FINAL WHERE ${chJoin([...profiles, chSql`profile_id IN (${members})`], AND)}) AS profile ON profile.id = member.distinct_id)`;
      conditions = [chSql`1`];
    } else {
      conditions = [...profiles, chSql`profile_id IN (${members})`];
    }
  }
  if (query.profileIds) conditions.push(chSql`profile_id IN ${chParam(query.profileIds)}`);
  if (query.where) conditions.push(chCompiled(query.where.sql, query.where.params));
  return { source, conditions: chJoin(conditions, AND) };
}

/** One page of the query's profiles in distinct-id order, the live (highest) version of each. */
export function mirrorPageSql(query: MirrorQuery, offset: number, limit: number): ChBoundQuery {
  const { source, conditions } = mirrorFilter(query);
  return renderChSql(
    chSql`SELECT profile_id, properties FROM ${source} WHERE ${conditions} ORDER BY profile_id LIMIT ${chParam(limit, 'UInt32')} OFFSET ${chParam(offset, 'UInt64')}`,
  );
}

/** How many profiles the query has. */
export function mirrorCountSql(query: MirrorQuery): ChBoundQuery {
  const { source, conditions } = mirrorFilter(query);
  return renderChSql(chSql`SELECT count() AS total FROM ${source} WHERE ${conditions}`);
}

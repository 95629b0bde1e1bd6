import { ClickHouseClient } from '@analytics/clickhouse';
import { formatEpochSeconds, serializeProperties } from '@analytics/events';
import { CompiledSql } from '@analytics/expression';
import { chCompiled, chIdent, chJoin, chParam, ChSql, chSql, ProjectScope, renderChSql } from '@analytics/tenancy';
import { Inject, Injectable } from '@nestjs/common';
import { Readable } from 'node:stream';
// Until @analytics/clickhouse's index exports PROFILES_TABLE.
import { PROFILES_TABLE } from '@analytics/clickhouse';
import { MirrorProfile } from './profiles.repository';

const PROFILES = chIdent(PROFILES_TABLE);
const AND = chSql` AND `;

/** A whole profile as the mirror stores it; a deleted one has no properties. */

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

/** What bounds a read: ClickHouse's `max_execution_time`, and a signal that cancels it (the client went away). */
export interface ReadLimits {
  maxExecutionSeconds: number;
  signal?: AbortSignal;
}

export interface MirroredProperties {
  profile_id: string;
  properties: string;
}

/**
 * The properties go in as a JSON object, read into the String column as its text (never escaped
 * twice), written as the events' are so the same `where` reads both alike.
 */
function mirrorLine(profile: MirrorProfile): string {
  return (
    `{"project_id":${profile.projectId},"group_key":${JSON.stringify(profile.groupKey)},"profile_id":${JSON.stringify(profile.profileId)},` +
    `"properties":${serializeProperties(profile.properties ?? {})},"version":${profile.version},"is_deleted":${profile.properties ? 0 : 1},` +
    `"created_at":"${formatEpochSeconds(profile.createdMs)}","updated_at":"${formatEpochSeconds(profile.updatedMs)}"}\n`
  );
}

/** The ClickHouse mirror of the profiles: written by the writer, read by the profile query. */
@Injectable()
export class ProfilesMirrorRepository {
  constructor(@Inject(ClickHouseClient) private readonly clickhouse: ClickHouseClient) {}

  /** A repeated insert of the same snapshots is harmless: equal versions collapse into one row. */
  async insert(profiles: MirrorProfile[]): Promise<void> {
    if (!profiles.length) return;
    const result = await this.clickhouse.exec({
      query: `INSERT INTO ${PROFILES_TABLE} FORMAT JSONEachRow`,
      values: Readable.from([profiles.map(mirrorLine).join('')]),
      clickhouse_settings: { input_format_json_read_objects_as_strings: 1, async_insert: 0 },
    });
    result.stream.destroy();
  }

  /** The query's profiles in distinct-id order, the live (highest) version of each. */
  async page(query: MirrorQuery, offset: number, limit: number, limits?: ReadLimits): Promise<MirroredProperties[]> {
    const { source, conditions } = this.filter(query);
    const { sql, params } = renderChSql(
      chSql`SELECT profile_id, properties FROM ${source} WHERE ${conditions} ORDER BY profile_id LIMIT ${chParam(limit, 'UInt32')} OFFSET ${chParam(offset, 'UInt64')}`,
    );
    const result = await this.clickhouse.query({ query: sql, query_params: params, format: 'JSONEachRow', ...readSettings(limits) });
    return result.json<MirroredProperties>();
  }

  async count(query: MirrorQuery, limits?: ReadLimits): Promise<number> {
    const { source, conditions } = this.filter(query);
    const { sql, params } = renderChSql(chSql`SELECT count() AS total FROM ${source} WHERE ${conditions}`);
    const result = await this.clickhouse.query({ query: sql, query_params: params, format: 'JSONEachRow', ...readSettings(limits) });
    const [row] = await result.json<{ total: number | string }>();
    return Number(row?.total ?? 0);
  }

  /**
   * What a page reads (`profile_id`, `properties`) and its conditions. The project predicate is
   * always first; the `where` comes compiled, with its own bound parameters, the cohort as a fragment.
   * With every user of a cohort, the members are the rows and their profiles (as of the snapshot)
   * are joined on, `{}` where there is none.
   */
  private filter(query: MirrorQuery): { source: ChSql; conditions: ChSql } {
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
}

function readSettings(limits: ReadLimits | undefined) {
  if (!limits) return {};
  return { abort_signal: limits.signal, clickhouse_settings: { max_execution_time: limits.maxExecutionSeconds } };
}

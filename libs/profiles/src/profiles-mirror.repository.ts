import { ClickHouseClient } from '@analytics/clickhouse';
import { formatEpochSeconds, serializeProperties } from '@analytics/events';
import { CompiledSql } from '@analytics/expression';
import { Inject, Injectable } from '@nestjs/common';
import { Readable } from 'node:stream';
// Until @analytics/clickhouse's index exports PROFILES_TABLE.
import { PROFILES_TABLE } from '@analytics/clickhouse';
import { MirrorProfile } from './profiles.repository';

/** A whole profile as the mirror stores it; a deleted one has no properties. */

/** One page of the profile query. Every query is scoped to a project and a kind of profile. */
export interface MirrorQuery {
  projectId: number;
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

/** A cohort's members as a `SELECT distinct_id` subquery with its own bound parameters. */
export interface CohortMembers {
  members: { sql: string; params: Record<string, unknown> };
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
    const { source, conditions, params } = this.filter(query);
    const result = await this.clickhouse.query({
      query:
        `SELECT profile_id, properties FROM ${source} WHERE ${conditions} ` +
        'ORDER BY profile_id LIMIT {limit:UInt32} OFFSET {offset:UInt64}',
      query_params: { ...params, limit, offset },
      format: 'JSONEachRow',
      ...readSettings(limits),
    });
    return result.json<MirroredProperties>();
  }

  async count(query: MirrorQuery, limits?: ReadLimits): Promise<number> {
    const { source, conditions, params } = this.filter(query);
    const result = await this.clickhouse.query({
      query: `SELECT count() AS total FROM ${source} WHERE ${conditions}`,
      query_params: params,
      format: 'JSONEachRow',
      ...readSettings(limits),
    });
    const [row] = await result.json<{ total: number | string }>();
    return Number(row?.total ?? 0);
  }

  /**
   * What a page reads (`profile_id`, `properties`) and its conditions. The project predicate is
   * always first; the `where` and cohort SQL come compiled, with their own bound parameters.
   * With every user of a cohort, the members are the rows and their profiles (as of the snapshot)
   * are joined on, `{}` where there is none.
   */
  private filter(query: MirrorQuery): { source: string; conditions: string; params: Record<string, unknown> } {
    const profiles = [
      'project_id = {project:UInt32}',
      'group_key = {groupKey:String}',
      "created_at <= fromUnixTimestamp64Milli({snapshot:Int64}, 'UTC')",
    ];
    const params: Record<string, unknown> = { project: query.projectId, groupKey: query.groupKey, snapshot: query.snapshotMs };
    let source = `${PROFILES_TABLE} FINAL`;
    let conditions = profiles;
    if (query.cohort) {
      Object.assign(params, query.cohort.members.params);
      if (query.cohort.includeAllUsers) {
        source =
          `(SELECT member.distinct_id AS profile_id, if(profile.found = 1, profile.properties_json, '{}') AS properties ` +
          `FROM (${query.cohort.members.sql}) AS member LEFT JOIN ` +
          // Only the members' profiles on the joined (in-memory) side, never the whole project's.
          `(SELECT profile_id AS id, properties AS properties_json, 1 AS found FROM ${PROFILES_TABLE} FINAL ` +
          `WHERE ${[...profiles, `profile_id IN (${query.cohort.members.sql})`].join(' AND ')}) AS profile ` +
          'ON profile.id = member.distinct_id)';
        conditions = ['1'];
      } else {
        conditions = [...profiles, `profile_id IN (${query.cohort.members.sql})`];
      }
    }
    if (query.profileIds) {
      conditions.push('profile_id IN {profileIds:Array(String)}');
      params.profileIds = query.profileIds;
    }
    if (query.where) {
      conditions.push(query.where.sql);
      Object.assign(params, query.where.params);
    }
    return { source, conditions: conditions.join(' AND '), params };
  }
}

function readSettings(limits: ReadLimits | undefined) {
  if (!limits) return {};
  return { abort_signal: limits.signal, clickhouse_settings: { max_execution_time: limits.maxExecutionSeconds } };
}

import { ClickHouseClient } from '@analytics/clickhouse';
import { formatEpochSeconds, serializeProperties } from '@analytics/events';
import { Inject, Injectable } from '@nestjs/common';
import { Readable } from 'node:stream';
import { mirrorCountSql, mirrorPageSql, MirrorQuery, PROFILES_MIRROR_INSERT } from './profiles-mirror-sql';
import { MirrorProfile } from './profile-rows';

/** What bounds a read: ClickHouse's `max_execution_time` and `max_memory_usage`, and a signal that cancels it (the client went away). */
export interface ReadLimits {
  maxExecutionSeconds: number;
  maxMemoryBytes: number;
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
      query: PROFILES_MIRROR_INSERT,
      values: Readable.from([profiles.map(mirrorLine).join('')]),
      clickhouse_settings: { input_format_json_read_objects_as_strings: 1, async_insert: 0 },
    });
    result.stream.destroy();
  }

  /** The query's profiles in distinct-id order, the live (highest) version of each. */
  async page(query: MirrorQuery, offset: number, limit: number, limits?: ReadLimits): Promise<MirroredProperties[]> {
    const { sql, params } = mirrorPageSql(query, offset, limit);
    const result = await this.clickhouse.query({
      query: sql,
      query_params: params,
      format: 'JSONEachRow',
      ...readSettings(limits),
    });
    return result.json<MirroredProperties>();
  }

  async count(query: MirrorQuery, limits?: ReadLimits): Promise<number> {
    const { sql, params } = mirrorCountSql(query);
    const result = await this.clickhouse.query({
      query: sql,
      query_params: params,
      format: 'JSONEachRow',
      ...readSettings(limits),
    });
    const [row] = await result.json<{ total: number | string }>();
    return Number(row?.total ?? 0);
  }
}

function readSettings(limits: ReadLimits | undefined) {
  if (!limits) return {};
  return {
    abort_signal: limits.signal,
    clickhouse_settings: {
      max_execution_time: limits.maxExecutionSeconds,
      max_memory_usage: String(limits.maxMemoryBytes),
    },
  };
}

import { ClickHouseClient, IDENTITY_MAP_TABLE } from '@analytics/clickhouse';
import { IdentityMember } from '@analytics/events';
import { Inject, Injectable } from '@nestjs/common';
import { Readable } from 'node:stream';

interface MapRow {
  distinct_id: string;
  person_id: string;
  identified_ms: string;
  linked_ms: string;
  version: string;
}

/** The identity mapping in ClickHouse (docs/identity.md). Every method is scoped to one project. */
@Injectable()
export class IdentityRepository {
  constructor(@Inject(ClickHouseClient) private readonly clickhouse: ClickHouseClient) {}

  /**
   * The current rows of every cluster holding one of `ids` (an id of a simplified user has no row:
   * its devices point at it), and the highest version among them.
   */
  async load(projectId: number, ids: string[]): Promise<{ members: IdentityMember[]; version: number }> {
    const rows = await this.select(
      `SELECT distinct_id, person_id, identified_ms, linked_ms, version FROM ${IDENTITY_MAP_TABLE} FINAL
       WHERE project_id = {project:UInt32} AND person_id IN (
         SELECT person_id FROM ${IDENTITY_MAP_TABLE} FINAL WHERE project_id = {project:UInt32} AND distinct_id IN {ids:Array(String)}
         UNION ALL SELECT arrayJoin({ids:Array(String)}))`,
      { project: projectId, ids },
    );
    return {
      members: rows.map((r) => ({ distinctId: r.distinct_id, personId: r.person_id, identifiedMs: Number(r.identified_ms), linkedMs: Number(r.linked_ms) })),
      version: rows.reduce((max, r) => Math.max(max, Number(r.version)), 0),
    };
  }

  /** Rewritten rows take a version above every row they were computed from, so they win. */
  async write(projectId: number, members: IdentityMember[], version: number): Promise<void> {
    if (!members.length) return;
    const lines = members.map(
      (m) =>
        `{"project_id":${projectId},"distinct_id":${JSON.stringify(m.distinctId)},"person_id":${JSON.stringify(m.personId)},` +
        `"identified_ms":${m.identifiedMs},"linked_ms":${m.linkedMs},"version":${version}}\n`,
    );
    const result = await this.clickhouse.exec({
      query: `INSERT INTO ${IDENTITY_MAP_TABLE} FORMAT JSONEachRow`,
      values: Readable.from([lines.join('')]),
      clickhouse_settings: { async_insert: 0 },
    });
    result.stream.destroy();
  }

  /** The canonical id of each of `ids` that belongs to a cluster under another id (the others are their own). */
  async resolve(projectId: number, ids: string[]): Promise<Map<string, string>> {
    if (!ids.length) return new Map();
    const rows = await this.select(
      `SELECT distinct_id, person_id, identified_ms, linked_ms, version FROM ${IDENTITY_MAP_TABLE} FINAL
       WHERE project_id = {project:UInt32} AND distinct_id IN {ids:Array(String)} AND person_id != distinct_id`,
      { project: projectId, ids },
    );
    return new Map(rows.map((r) => [r.distinct_id, r.person_id]));
  }

  /**
   * Every id of the clusters the given ids belong to, sorted (an id never merged stands for
   * itself): what deletion and retrieval of a person cover. One query however many ids.
   */
  async clustersOf(projectId: number, distinctIds: string[]): Promise<string[]> {
    if (!distinctIds.length) return [];
    const { members } = await this.load(projectId, distinctIds);
    return [...new Set([...distinctIds, ...members.flatMap((m) => [m.distinctId, m.personId])])].sort();
  }

  /** Every id of the cluster `distinctId` belongs to, sorted (the id alone when it was never merged). */
  clusterOf(projectId: number, distinctId: string): Promise<string[]> {
    return this.clustersOf(projectId, [distinctId]);
  }

  private async select(query: string, params: Record<string, unknown>): Promise<MapRow[]> {
    const result = await this.clickhouse.query({ query, query_params: params, format: 'JSONEachRow' });
    return result.json<MapRow>();
  }
}

import { ClickHouseClient, ClickHouseDdl, countRows } from '@analytics/clickhouse';
import { IdentityMember } from '@analytics/events';
import { ChBoundQuery, ProjectScope } from '@analytics/tenancy';
import { Inject, Injectable, Logger, Optional } from '@nestjs/common';
import { Readable } from 'node:stream';
import {
  clusterRowsSql,
  forgetLookupSql,
  IDENTITY_MAP_INSERT,
  LOOKUP_REWRITE,
  lookupInsertSql,
  lookupRowsSql,
  mergedRowsSql,
} from './identity-map-sql';

interface MapRow {
  distinct_id: string;
  person_id: string;
  identified_ms: string;
  linked_ms: string;
  version: string;
}

/**
 * identity_lookup keeps each insert in a file of its own (replayed when the server starts) until a
 * mutation rewrites the table as one: this many inserts by one writer, then it rewrites it.
 */
const LOOKUP_INSERTS_PER_REWRITE = 1000;

/**
 * The identity mapping in ClickHouse (docs/identity.md): identity_map and, on one server,
 * identity_lookup, the unique counts' in-memory copy of it. Every method is scoped to one project.
 */
@Injectable()
export class IdentityRepository {
  /** identity_lookup exists on one server only (migration 4): a cluster's readers keep the join. */
  private readonly lookup: boolean;
  private lookupInserts = 0;
  private readonly logger = new Logger(IdentityRepository.name);

  constructor(
    @Inject(ClickHouseClient) private readonly clickhouse: ClickHouseClient,
    @Optional() ddl?: ClickHouseDdl,
  ) {
    this.lookup = !ddl?.cluster;
  }

  /**
   * The current rows of every cluster holding one of `ids` (an id of a simplified user has no row:
   * its devices point at it), and the highest version among them.
   */
  async load(scope: ProjectScope, ids: string[]): Promise<{ members: IdentityMember[]; version: number }> {
    const rows = await this.select(clusterRowsSql(scope, ids));
    return {
      members: rows.map((r) => ({
        distinctId: r.distinct_id,
        personId: r.person_id,
        identifiedMs: Number(r.identified_ms),
        linkedMs: Number(r.linked_ms),
      })),
      version: rows.reduce((max, r) => Math.max(max, Number(r.version)), 0),
    };
  }

  /**
   * Rewritten rows (`changed`) take a version above every row they were computed from, so they
   * win. Then identity_lookup gets a row for every id of the clusters the batch touched (`touched`),
   * changed or not (the last row of a key wins there): whatever an earlier, interrupted attempt
   * wrote to it, the lookup ends as identity_map says, and a writer stopped between the two writes
   * writes the lookup again when the links come again, even if identity_map has nothing to change.
   */
  async write(
    scope: ProjectScope,
    changed: IdentityMember[],
    version: number,
    touched: IdentityMember[] = changed,
  ): Promise<void> {
    await this.writeMap(scope, changed, version);
    if (!this.lookup || !touched.length) return;
    const { sql, params } = lookupInsertSql(scope, touched);
    await this.clickhouse.command({ query: sql, query_params: params });
    if (++this.lookupInserts % LOOKUP_INSERTS_PER_REWRITE === 0) {
      // Only fewer files to replay at start: a failure here must not fail the applied batch.
      await this.rewriteLookup().catch((error: unknown) =>
        this.logger.warn(`identity_lookup compaction failed: ${(error as Error).message}`),
      );
    }
  }

  private async writeMap(scope: ProjectScope, members: IdentityMember[], version: number): Promise<void> {
    if (!members.length) return;
    const lines = members.map(
      (m) =>
        `{"project_id":${scope.projectId},"distinct_id":${JSON.stringify(m.distinctId)},"person_id":${JSON.stringify(m.personId)},` +
        `"identified_ms":${m.identifiedMs},"linked_ms":${m.linkedMs},"version":${version}}\n`,
    );
    const result = await this.clickhouse.exec({
      query: IDENTITY_MAP_INSERT,
      values: Readable.from([lines.join('')]),
      clickhouse_settings: { async_insert: 0 },
    });
    result.stream.destroy();
  }

  /** The canonical id of each of `ids` that belongs to a cluster under another id (the others are their own). */
  async resolve(scope: ProjectScope, ids: string[]): Promise<Map<string, string>> {
    if (!ids.length) return new Map();
    const rows = await this.select(mergedRowsSql(scope, ids));
    return new Map(rows.map((r) => [r.distinct_id, r.person_id]));
  }

  /**
   * Every id of the clusters the given ids belong to, sorted (an id never merged stands for
   * itself): what deletion and retrieval of a person cover. One query however many ids.
   */
  async clustersOf(scope: ProjectScope, distinctIds: string[]): Promise<string[]> {
    if (!distinctIds.length) return [];
    const { members } = await this.load(scope, distinctIds);
    return [...new Set([...distinctIds, ...members.flatMap((m) => [m.distinctId, m.personId])])].sort();
  }

  /** Rewrites identity_lookup's files as one, holding what it holds in memory (a mutation that deletes nothing). */
  async rewriteLookup(): Promise<void> {
    if (this.lookup) await this.clickhouse.command({ query: LOOKUP_REWRITE });
  }

  /** Removes the ids from identity_lookup (compliance deletion; identity_map's rows go with the registry's tables). */
  async forget(scope: ProjectScope, distinctIds: string[], signal?: AbortSignal): Promise<void> {
    if (!this.lookup || !distinctIds.length) return;
    const { sql, params } = forgetLookupSql(scope, distinctIds);
    await this.clickhouse.command({ query: sql, query_params: params, abort_signal: signal });
  }

  /** How many of the ids identity_lookup still holds (0 on a cluster, which has none). */
  async lookupRows(scope: ProjectScope, distinctIds: string[], signal?: AbortSignal): Promise<number> {
    if (!this.lookup || !distinctIds.length) return 0;
    return countRows(this.clickhouse, lookupRowsSql(scope, distinctIds), signal);
  }

  private async select({ sql, params }: ChBoundQuery): Promise<MapRow[]> {
    const result = await this.clickhouse.query({ query: sql, query_params: params, format: 'JSONEachRow' });
    return result.json<MapRow>();
  }
}

import { ClickHouseClient, ClickHouseDdl, DELETE_ON_EVERY_REPLICA_SETTINGS, EVENTS_TABLE } from '@analytics/clickhouse';
import { AppConfig } from '@analytics/config';
import { Postgres, selectRows } from '@analytics/postgres';
import { Inject, Injectable } from '@nestjs/common';
import { sql } from 'drizzle-orm';

/** The events' stamp, read from the JSON text of their custom properties. */
const IMPORTED_BY = `project_id = {project:UInt32} AND JSONExtractString(properties, '$warehouse_import_id') = {importId:String}`;

/**
 * What one import brought, found by its `$warehouse_import_id` stamp: events in ClickHouse (removed
 * with a lightweight delete, as compliance deletions are) and profiles in Postgres (removed through
 * the profile path, so the ClickHouse mirror follows).
 */
@Injectable()
export class ImportedDataRepository {
  private readonly ddl: ClickHouseDdl;

  constructor(
    @Inject(ClickHouseClient) private readonly clickhouse: ClickHouseClient,
    private readonly postgres: Postgres,
    config: AppConfig,
  ) {
    this.ddl = new ClickHouseDdl(config.clickhouseCluster);
  }

  async deleteEvents(projectId: number, importId: number): Promise<void> {
    await this.clickhouse.command({
      query: this.ddl.deleteRows(EVENTS_TABLE, IMPORTED_BY),
      query_params: { project: projectId, importId: String(importId) },
      clickhouse_settings: DELETE_ON_EVERY_REPLICA_SETTINGS,
    });
  }

  async countEvents(projectId: number, importId: number): Promise<number> {
    const result = await this.clickhouse.query({ query: `SELECT count() AS n FROM ${EVENTS_TABLE} WHERE ${IMPORTED_BY}`, query_params: { project: projectId, importId: String(importId) }, format: 'JSONEachRow' });
    const [row] = await result.json<{ n: string | number }>();
    return Number(row?.n ?? 0);
  }

  /** Profile ids (user: group key '') that carry the import's stamp. */
  async profileIds(projectId: number, importId: number, groupKey: string): Promise<string[]> {
    const rows = await selectRows<{ profile_id: string }>(
      this.postgres.db,
      sql`select profile_id from profiles where project_id = ${projectId} and group_key = ${groupKey} and properties->>'$warehouse_import_id' = ${String(importId)}`,
    );
    return rows.map((row) => row.profile_id);
  }
}

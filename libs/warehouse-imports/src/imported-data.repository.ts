import { ClickHouseClient, ClickHouseDdl, DELETE_ON_EVERY_REPLICA_SETTINGS } from '@analytics/clickhouse';
import { AppConfig } from '@analytics/config';
import { EVENTS_TABLE } from '@analytics/event-store';
import { Postgres, selectRows } from '@analytics/postgres';
import { ChBoundQuery, chIdent, ChSql, chParam, chSql, pgSql, ProjectScope, renderChSql } from '@analytics/tenancy';
import { Inject, Injectable } from '@nestjs/common';

/** The project's events with the import's stamp, read from the JSON text of their custom properties. */
const importedBy = (scope: ProjectScope, importId: number): ChSql =>
  chSql`${scope} AND JSONExtractString(properties, '$warehouse_import_id') = ${chParam(String(importId))}`;

/** A lightweight delete of the import's events, as compliance deletions are (on each shard's local table on a cluster). */
export function deleteImportedEventsSql(ddl: ClickHouseDdl, scope: ProjectScope, importId: number): ChBoundQuery {
  const where = renderChSql(importedBy(scope, importId));
  return { sql: ddl.deleteRows(EVENTS_TABLE, where.sql), params: where.params };
}

export function countImportedEventsSql(scope: ProjectScope, importId: number): ChBoundQuery {
  return renderChSql(chSql`SELECT count() AS n FROM ${chIdent(EVENTS_TABLE)} WHERE ${importedBy(scope, importId)}`);
}

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

  async deleteEvents(scope: ProjectScope, importId: number): Promise<void> {
    const { sql, params } = deleteImportedEventsSql(this.ddl, scope, importId);
    await this.clickhouse.command({ query: sql, query_params: params, clickhouse_settings: DELETE_ON_EVERY_REPLICA_SETTINGS });
  }

  async countEvents(scope: ProjectScope, importId: number): Promise<number> {
    const { sql: query, params } = countImportedEventsSql(scope, importId);
    const result = await this.clickhouse.query({ query, query_params: params, format: 'JSONEachRow' });
    const [row] = await result.json<{ n: string | number }>();
    return Number(row?.n ?? 0);
  }

  /** The project's profile ids (user: group key '') that carry the import's stamp. */
  async profileIds(scope: ProjectScope, importId: number, groupKey: string): Promise<string[]> {
    const rows = await selectRows<{ profile_id: string }>(
      this.postgres.db,
      pgSql`select profile_id from profiles where ${scope} and group_key = ${groupKey} and properties->>'$warehouse_import_id' = ${String(importId)}`,
    );
    return rows.map((row) => row.profile_id);
  }
}

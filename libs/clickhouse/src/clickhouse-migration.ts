import { ClickHouseClient } from '@clickhouse/client';
import { Migration } from '@analytics/migrations';
import { ClickHouseDdl } from './clickhouse-ddl';

export interface ClickHouseMigrationContext {
  client: ClickHouseClient;
  ddl: ClickHouseDdl;
}

export type ClickHouseMigration = Migration<ClickHouseMigrationContext>;

/** Most ClickHouse migrations are a list of idempotent DDL statements (`IF NOT EXISTS`). */
export function ddlMigration(
  version: number,
  name: string,
  statements: (ddl: ClickHouseDdl) => string[],
): ClickHouseMigration {
  return {
    version,
    name,
    async up({ client, ddl }) {
      for (const query of statements(ddl)) await client.command({ query });
    },
  };
}

import { ClickHouseMigration } from '@analytics/clickhouse';
import { profilesMirror } from './0002-profiles';

/**
 * The profiles mirror's ClickHouse migration, version and name as shipped: one ledger holds every
 * owner's, so a version is never reused (the runtime's CLICKHOUSE_MIGRATIONS merges them in version
 * order). The Postgres tables are created by migration 3 of libs/postgres's ledger. Append; never
 * edit one that has shipped.
 */
export const PROFILE_STORE_MIGRATIONS: readonly ClickHouseMigration[] = [profilesMirror];

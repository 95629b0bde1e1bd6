import { ClickHouseMigration, IDENTITY_MIGRATIONS } from '@analytics/clickhouse';
import { EVENT_STORE_MIGRATIONS } from '@analytics/event-store';
import { LOOKUP_TABLE_MIGRATIONS } from '@analytics/lookup-tables';
import { inVersionOrder } from '@analytics/migrations';
import { PROFILE_STORE_MIGRATIONS } from '@analytics/profile-store';

/**
 * The one ClickHouse ledger, merged here because this lib applies it (at start, and for `migrate`)
 * and sits above every table's owner: each owning lib exports its own migrations, none imports
 * another's. Versions and names are the ones shipped, so a data directory sees nothing new.
 */
export const CLICKHOUSE_MIGRATIONS: readonly ClickHouseMigration[] = inVersionOrder(
  EVENT_STORE_MIGRATIONS,
  PROFILE_STORE_MIGRATIONS,
  IDENTITY_MIGRATIONS,
  LOOKUP_TABLE_MIGRATIONS,
);

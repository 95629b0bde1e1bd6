import { ClickHouseMigration } from '@analytics/clickhouse';
import { eventsTable } from './0001-events';
import { eventsUserKey } from './0005-events-user-key';
import { eventsCodecs } from './0006-events-codecs';

/**
 * The events table's migrations, versions and names as shipped: one ledger holds every owner's, so a
 * version is never reused (the runtime's CLICKHOUSE_MIGRATIONS merges them in version order).
 * Append; never edit one that has shipped.
 */
export const EVENT_STORE_MIGRATIONS: readonly ClickHouseMigration[] = [eventsTable, eventsUserKey, eventsCodecs];

import { ClickHouseMigration } from '@analytics/clickhouse';
import { lookupTableRows } from './0007-lookup-table-rows';

/** The lookup tables' ClickHouse migrations (the runtime's CLICKHOUSE_MIGRATIONS merges them). Append only. */
export const LOOKUP_TABLE_MIGRATIONS: readonly ClickHouseMigration[] = [lookupTableRows];

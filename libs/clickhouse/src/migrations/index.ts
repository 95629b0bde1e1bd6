import { ClickHouseMigration } from '../clickhouse-migration';
import { eventsTable } from './0001-events';

/** Every ClickHouse migration, in version order. Append; never edit one that has shipped. */
export const CLICKHOUSE_MIGRATIONS: readonly ClickHouseMigration[] = [eventsTable];

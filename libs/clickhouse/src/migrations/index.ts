import { ClickHouseMigration } from '../clickhouse-migration';
import { eventsTable } from './0001-events';
import { profilesMirror } from './0002-profiles';
import { identityMap } from './0003-identity-map';
import { identityLookup } from './0004-identity-lookup';
import { eventsUserKey } from './0005-events-user-key';

/** Every ClickHouse migration, in version order. Append; never edit one that has shipped. */
export const CLICKHOUSE_MIGRATIONS: readonly ClickHouseMigration[] = [eventsTable, profilesMirror, identityMap, identityLookup, eventsUserKey];

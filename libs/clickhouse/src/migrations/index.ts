import { ClickHouseMigration } from '../clickhouse-migration';
import { profilesMirror } from './0002-profiles';
import { identityMap } from './0003-identity-map';
import { identityLookup } from './0004-identity-lookup';

/**
 * The migrations of the tables whose owners do not hold their DDL yet: the profiles mirror (written
 * by libs/profiles) and identity_map and identity_lookup (written by libs/identity). Versions 1 and 5
 * are the event store's (libs/event-store); the runtime's CLICKHOUSE_MIGRATIONS merges the owners'
 * lists into the one ordered ledger. Append; never edit one that has shipped.
 */
export const PROFILES_AND_IDENTITY_MIGRATIONS: readonly ClickHouseMigration[] = [profilesMirror, identityMap, identityLookup];

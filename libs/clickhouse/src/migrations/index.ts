import { ClickHouseMigration } from '../clickhouse-migration';
import { identityMap } from './0003-identity-map';
import { identityLookup } from './0004-identity-lookup';

/**
 * The migrations of the tables whose owner does not hold their DDL yet: identity_map and
 * identity_lookup (written by libs/identity). Versions 1 and 5 are the event store's
 * (libs/event-store), 2 the profile store's (libs/profile-store); the runtime's
 * CLICKHOUSE_MIGRATIONS merges the owners' lists into the one ordered ledger. Append; never edit
 * one that has shipped.
 */
export const IDENTITY_MIGRATIONS: readonly ClickHouseMigration[] = [identityMap, identityLookup];

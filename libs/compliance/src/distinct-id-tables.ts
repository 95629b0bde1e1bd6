import { IDENTITY_MAP_TABLE } from '@analytics/clickhouse';
import { EVENTS_TABLE } from '@analytics/event-store';
import { PROFILES_MIRROR_TABLE, PROFILES_TABLE } from '@analytics/profile-store';

/**
 * Every table that holds a user's distinct id, and how a deletion finds the ids' rows in it. A
 * test reads the migrated schemas of both engines and fails when a table has an identity column
 * (`distinct_id`, `profile_id`) that is not named here.
 */
export interface DistinctIdTable {
  engine: 'clickhouse' | 'postgres';
  table: string;
  /** The column holding the distinct id. */
  column: string;
  /** Extra predicate on the rows: user profiles only (group profiles are keyed by group id). */
  where?: string;
  /** Not erased by a deletion, and why. */
  kept?: string;
}

export const DISTINCT_ID_TABLES: readonly DistinctIdTable[] = [
  // Deleted and counted by its owner, the event store (erasedEventsSql), up to the ingestion bound.
  { engine: 'clickhouse', table: EVENTS_TABLE, column: 'distinct_id' },
  // The profile store's tables, by the names it holds: the mirror and the Postgres source of truth.
  { engine: 'clickhouse', table: PROFILES_MIRROR_TABLE, column: 'profile_id', where: "group_key = ''" },
  { engine: 'postgres', table: PROFILES_TABLE, column: 'profile_id', where: "group_key = ''" },
  // Identity merge (docs/identity.md): the worker names every id of the requested ids' clusters,
  // and their links go too. Last, so an attempt that fails before the end finds the same clusters
  // when it is retried. identity_lookup, the unique counts' copy, holds only the ids' keys and is
  // emptied of them first by DeletionRepository (IdentityRepository.forget).
  { engine: 'clickhouse', table: IDENTITY_MAP_TABLE, column: 'distinct_id' },
  {
    engine: 'postgres',
    table: 'compliance_jobs',
    column: 'distinct_ids',
    kept: 'the record of the request itself, which the status endpoint answers with',
  },
];

/** Column names that hold a distinct id wherever they appear. */
export const IDENTITY_COLUMNS: readonly string[] = ['distinct_id', 'distinct_ids', 'profile_id'];

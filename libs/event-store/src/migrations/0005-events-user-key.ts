import { ClickHouseMigration, identityKeySql } from '@analytics/clickhouse';
import { EVENTS_TABLE, USER_KEY_COLUMN } from '../events-table';

/**
 * Each event's 128-bit person key, `identityKeySql` of its distinct id, computed by the engine at
 * insert (`MATERIALIZED`: no insert names it, `SELECT *` leaves it out), so funnels and unique
 * counts group 16-byte integers instead of strings (docs/storage.md, "The person key"). On a
 * cluster the Distributed table declares it too, with the same expression, so inserts through it
 * work as before and reads find it. Parts written before compute it when read, until a merge
 * rewrites them or an operator runs `MATERIALIZE COLUMN`: the migration queues no such mutation,
 * since every later mutation (a compliance deletion, an import rollback) would wait behind a
 * rewrite of the whole table.
 */
export const eventsUserKey: ClickHouseMigration = {
  version: 5,
  name: 'events_user_key',
  async up({ client, ddl }) {
    const add = `ADD COLUMN IF NOT EXISTS ${USER_KEY_COLUMN} UInt128 MATERIALIZED ${identityKeySql('project_id', 'distinct_id')}`;
    await client.command({ query: ddl.alterTable(EVENTS_TABLE, add) });
    if (ddl.cluster) await client.command({ query: `ALTER TABLE ${EVENTS_TABLE}${ddl.onCluster} ${add}` });
  },
};

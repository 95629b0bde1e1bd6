import { ddlMigration } from '../clickhouse-migration';
import { fillIdentityLookupSql, IDENTITY_LOOKUP_TABLE } from '../tables';

/**
 * The unique counts' copy of identity_map's merged ids (docs/identity.md, "Readers"): a Join-engine
 * table, a hash table held in memory (and in its own files, reloaded at start), so a report looks
 * each event's id up (`joinGet`) instead of building a hash join from identity_map every query.
 * `key` is the low 64 bits of the id's 128-bit key, `delta` that key XOR its canonical id's key;
 * the identity writer adds the rows it writes to identity_map (the last row of a key wins) and
 * compliance deletion removes them. Not replicated: one table per server, so only without a cluster
 * (a cluster's readers keep the join). Filled once here from the ids merged before it existed.
 */
export const identityLookup = ddlMigration(4, 'identity_lookup', (ddl) =>
  ddl.cluster
    ? []
    : [
        `CREATE TABLE IF NOT EXISTS ${IDENTITY_LOOKUP_TABLE} (project_id UInt32, key UInt64, delta UInt128)
        ENGINE = Join(ANY, LEFT, key) SETTINGS join_any_take_last_row = 1`,
        fillIdentityLookupSql('1'),
      ],
);

import { IDENTITY_LOOKUP_TABLE, IDENTITY_MAP_TABLE, identityKeySql, insertFormattedSql } from '@analytics/clickhouse';
import { IdentityMember } from '@analytics/events';
import { ChBoundQuery, chCompiled, chIdent, ChSql, chSql, ProjectScope, renderChSql } from '@analytics/tenancy';

/** The statements IdentityRepository runs, built apart from the client so that they render without I/O (libs/identity/sql/). */

const IDENTITY_MAP = chIdent(IDENTITY_MAP_TABLE);
const IDENTITY_LOOKUP = chIdent(IDENTITY_LOOKUP_TABLE);

/** The low 64 bits of the keys of `{ids:Array(String)}` in the project: how identity_lookup finds them. */
const lookupKeys = (scope: ProjectScope): ChSql =>
  chCompiled(`SELECT toUInt64(${identityKeySql('{keyProject:UInt32}', 'arrayJoin({ids:Array(String)})')})`, {
    keyProject: scope.projectId,
  });

/** The current rows of every cluster holding one of `ids`; the ids are bound once however often the query reads them. */
export function clusterRowsSql(scope: ProjectScope, ids: string[]): ChBoundQuery {
  return renderChSql(
    chSql`SELECT distinct_id, person_id, identified_ms, linked_ms, version FROM ${IDENTITY_MAP} FINAL
       WHERE ${scope} AND person_id IN (
         SELECT person_id FROM ${IDENTITY_MAP} FINAL WHERE ${scope} AND distinct_id IN {ids:Array(String)}
         UNION ALL SELECT arrayJoin({ids:Array(String)}))`,
    { params: { ids } },
  );
}

/** The rows of those of `ids` that belong to a cluster under another id. */
export function mergedRowsSql(scope: ProjectScope, ids: string[]): ChBoundQuery {
  return renderChSql(
    chSql`SELECT distinct_id, person_id, identified_ms, linked_ms, version FROM ${IDENTITY_MAP} FINAL
       WHERE ${scope} AND distinct_id IN {ids:Array(String)} AND person_id != distinct_id`,
    { params: { ids } },
  );
}

/** identity_map's rows go in as JSONEachRow lines (the body of the insert). */
export const IDENTITY_MAP_INSERT = insertFormattedSql(IDENTITY_MAP_TABLE, 'JSONEachRow');

/** identity_lookup's row for each member: its own key, and its key XOR its canonical id's. */
export function lookupInsertSql(scope: ProjectScope, members: IdentityMember[]): ChBoundQuery {
  return {
    sql: `INSERT INTO ${IDENTITY_LOOKUP_TABLE}
        SELECT {project:UInt32}, toUInt64(own), bitXor(own, ${identityKeySql('{project:UInt32}', 'person_id')})
        FROM (SELECT arrayJoin(arrayZip({ids:Array(String)}, {persons:Array(String)})) AS pair, pair.1 AS distinct_id, pair.2 AS person_id,
          ${identityKeySql('{project:UInt32}', 'distinct_id')} AS own)`,
    params: {
      project: scope.projectId,
      ids: members.map((m) => m.distinctId),
      persons: members.map((m) => m.personId),
    },
  };
}

/** A mutation that deletes nothing: it rewrites identity_lookup's files as one. */
export const LOOKUP_REWRITE = `ALTER TABLE ${IDENTITY_LOOKUP_TABLE} DELETE WHERE 0`;

/** Removes the ids from identity_lookup. */
export function forgetLookupSql(scope: ProjectScope, distinctIds: string[]): ChBoundQuery {
  return renderChSql(chSql`ALTER TABLE ${IDENTITY_LOOKUP} DELETE WHERE ${scope} AND key IN (${lookupKeys(scope)})`, {
    params: { ids: distinctIds },
  });
}

/** How many of the ids identity_lookup holds. */
export function lookupRowsSql(scope: ProjectScope, distinctIds: string[]): ChBoundQuery {
  return renderChSql(
    chSql`SELECT count() AS n FROM ${IDENTITY_LOOKUP} WHERE ${scope} AND key IN (${lookupKeys(scope)})`,
    { params: { ids: distinctIds } },
  );
}

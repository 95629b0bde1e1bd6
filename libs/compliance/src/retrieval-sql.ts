import { clickhouseDateTime } from '@analytics/clickhouse';
import { exportedEventLineSql, retrievedEventsSql } from '@analytics/event-store';
import { userProfilesSql } from '@analytics/profile-store';
import { ChBoundQuery, chCompiled, ChSql, chSql, ProjectScope, renderChSql } from '@analytics/tenancy';
import { DisclosureType } from './compliance-job';

export interface RetrievalScope {
  project: ProjectScope;
  distinctIds: string[];
  disclosureType: DisclosureType;
  /** CCPA: only events since this time. */
  since?: Date;
  /** The project's group keys: a user's memberships are the values of these properties. */
  groupKeys: string[];
}

/** The raw export's line: retrieval files hold the events as the export gives them. */
const EXPORTED_EVENT = exportedEventLineSql();

/** The raw JSON values of group key `key` in `properties`: one for a scalar, each element of a list. */
const GROUP_IDS = chCompiled(
  `arrayFilter(v -> v NOT IN ('', 'null'), if(JSONType(properties, key) = 'Array', JSONExtractArrayRaw(properties, key), [JSONExtractRaw(properties, key)]))`,
);

/** Where a retrieval reads: the ids' events (since `since`) and user profiles, in the scope's project. */
interface Sources {
  events: ChSql;
  profiles: ChSql;
}

function sources(project: ProjectScope): Sources {
  return {
    events: retrievedEventsSql(project),
    profiles: chSql`${userProfilesSql(project)} AND profile_id IN {ids:Array(String)}`,
  };
}

/**
 * Per id, the groups it belongs to: the group key properties of its profile and of its events, as
 * `{"$distinct_id","$group_memberships":{"<key>":[<group id>…]}}` (ids keep their JSON type).
 */
const memberships = ({
  events,
  profiles,
}: Sources) => chSql`SELECT concat('{"$distinct_id":', toJSONString(id), ',"$group_memberships":{',
      arrayStringConcat(arraySort(groupArray(concat(toJSONString(key), ':[', arrayStringConcat(arraySort(ids), ','), ']'))), ','), '}}') AS line,
      2 AS part, toDateTime64(0, 3, 'UTC') AS t, id AS k
    FROM (
      SELECT id, key, groupUniqArrayArray(values) AS ids FROM (
        SELECT distinct_id AS id, arrayJoin({keys:Array(String)}) AS key, ${GROUP_IDS} AS values ${events}
        UNION ALL
        SELECT profile_id, arrayJoin({keys:Array(String)}) AS key, ${GROUP_IDS} ${profiles}
      ) WHERE notEmpty(values) GROUP BY id, key
    ) GROUP BY id`;

/** A Data retrieval's lines; the memberships part (a second read of the events) only when the project has group keys. */
const dataLines = (from: Sources, withMemberships: boolean) => chSql`SELECT line FROM (
      SELECT ${chCompiled(EXPORTED_EVENT)} AS line, 0 AS part, time AS t, insert_id AS k ${from.events}
      UNION ALL
      SELECT concat('{"$distinct_id":', toJSONString(profile_id), ',"$properties":', properties, '}'), 1, toDateTime64(0, 3, 'UTC'), profile_id ${from.profiles}
      ${withMemberships ? chSql`UNION ALL ${memberships(from)}` : chSql``}
    ) ORDER BY part, t, k`;

/** One `line String` per output line, for each disclosure type. */
const LINES: Record<Exclude<DisclosureType, 'Data'>, (from: Sources) => ChSql> = {
  Categories: ({ events, profiles }) => chSql`SELECT line FROM (
      SELECT concat('{"distinct_id":', toJSONString(distinct_id), ',"event_properties":', toJSONString(arraySort(groupUniqArrayArray(JSONExtractKeys(properties)))), '}') AS line, 0 AS part, distinct_id AS k ${events} GROUP BY distinct_id
      UNION ALL
      SELECT concat('{"distinct_id":', toJSONString(profile_id), ',"profile_properties":', toJSONString(arraySort(JSONExtractKeys(properties))), '}'), 1, profile_id ${profiles}
    ) ORDER BY part, k`,
  Sources: ({
    events,
  }) => chSql`SELECT concat('{"distinct_id":', toJSONString(distinct_id), ',"sources":', toJSONString(arraySort(arrayFilter(x -> x != '',
        arrayConcat(groupUniqArray(JSONExtractString(properties, '$lib')), groupUniqArray(JSONExtractString(properties, 'mp_lib')))))), '}') AS line
      ${events} GROUP BY distinct_id ORDER BY distinct_id`,
};

/** The retrieval's lines, one `line String` each; the ids travel once however many parts read them (an expansion can hold thousands). */
export function retrievalLinesSql(scope: RetrievalScope): ChBoundQuery {
  const named = {
    ids: scope.distinctIds,
    since: clickhouseDateTime(scope.since ?? new Date(0)),
    keys: scope.groupKeys,
  };
  const from = sources(scope.project);
  const lines =
    scope.disclosureType === 'Data' ? dataLines(from, scope.groupKeys.length > 0) : LINES[scope.disclosureType](from);
  return renderChSql(lines, { params: named });
}

/** ClickHouse writes the lines into a gzip file itself (chDB and the local folder); `path` is ours (the store's root and a validated key), never user input. */
export function retrievalFileSql(path: string, lines: ChBoundQuery): ChBoundQuery {
  return {
    sql: `INSERT INTO FUNCTION file('${path.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}', 'TabSeparatedRaw', 'line String', 'gzip') ${lines.sql}`,
    params: lines.params,
  };
}

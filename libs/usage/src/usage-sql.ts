import { ClickHouseDdl } from '@analytics/clickhouse';
import { EVENTS_TABLE, storedEventsSql } from '@analytics/event-store';
import { ChBoundQuery, chIdent, chParam, ChSql, chSql, ProjectScope, renderChSql } from '@analytics/tenancy';
import { UsageRange } from './usage-range';

const EVENTS = chIdent(EVENTS_TABLE);

/**
 * The project's stored events, deduplicated as reports read them (`events FINAL`), in one scan:
 * counted by day over the primary key's prefix, then summed. `per_day` holds only the range's days
 * that have events, as `(day, count)` in day order; `oldest`/`newest` are null without events.
 */
export function eventsUsageSql(scope: ProjectScope, range: UsageRange): ChBoundQuery {
  const from = chParam(range.from, 'Date');
  const to = chParam(range.to, 'Date');
  return renderChSql(chSql`SELECT sum(events) AS total, minOrNull(first) AS oldest, maxOrNull(last) AS newest,
    arraySort(groupArrayIf((toString(day), events), day BETWEEN ${from} AND ${to})) AS per_day
  FROM (SELECT toDate(time) AS day, count() AS events, min(time) AS first, max(time) AS last
    FROM ${storedEventsSql(scope)}
    WHERE ${scope}
    GROUP BY day)`);
}

/**
 * The events table's active parts on disk: on one server its own, on a cluster one replica of each
 * shard (`cluster()`), so replicas are not counted twice.
 */
function eventsPartsSql(ddl: ClickHouseDdl): ChSql {
  const parts = ddl.cluster ? chSql`cluster(${chIdent(ddl.cluster)}, system.parts)` : chIdent('system.parts');
  return chSql`SELECT sum(bytes_on_disk) FROM ${parts}
      WHERE database = currentDatabase() AND table = ${chParam(ddl.storageTable(EVENTS_TABLE))} AND active`;
}

/**
 * What the project's share of the events table's bytes is estimated from: the table's bytes on
 * disk, its stored rows and the project's (duplicates not yet merged count on both sides). Counts
 * without FINAL: the whole table's is read from part metadata, the project's by the key's prefix.
 */
export function eventsDiskShareSql(ddl: ClickHouseDdl, scope: ProjectScope): ChBoundQuery {
  return renderChSql(chSql`SELECT (${eventsPartsSql(ddl)}) AS table_bytes,
    (SELECT count() FROM ${EVENTS}) AS table_rows,
    (SELECT count() FROM ${EVENTS} WHERE ${scope}) AS project_rows`);
}

/** Every project's stored rows (without FINAL) and oldest event time, for the usage gauges. */
export function storedEventsByProjectSql(): ChBoundQuery {
  return renderChSql(
    chSql`SELECT project_id, count() AS events, min(time) AS oldest FROM ${EVENTS} GROUP BY project_id`,
    { acrossProjects: 'the usage gauges count every project once a minute' },
  );
}

/** The events table's bytes on disk, for the usage gauges (no project: it is the whole table's). */
export function eventsTableBytesSql(ddl: ClickHouseDdl): ChBoundQuery {
  return renderChSql(chSql`SELECT (${eventsPartsSql(ddl)}) AS table_bytes`, {
    acrossProjects: "the events table's size, shared out among projects by their rows",
  });
}

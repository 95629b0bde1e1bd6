/**
 * `npm run bench:usage`: what the usage route and the usage gauges cost on USAGE_BENCH_EVENTS
 * (default 2,000,000) stored events of one project spread over a year (plus a tenth of them
 * stored twice, as retried batches are until a merge, and another project a tenth its size), in
 * chDB in-process. Each query runs USAGE_BENCH_ROUNDS times (default 5): best, median and worst
 * wall time. The bare baseline, run in the same rounds: the project's plain `count()` without
 * FINAL, the cheapest question about its rows; and the route's scan without FINAL, what the
 * deduplication adds. Then the route's scan again after `OPTIMIZE … FINAL` (every partition one part,
 * as merges leave old data). Last line: one JSON object of the figures.
 */
import 'reflect-metadata';
import { ClickHouseClient, ClickHouseDdl, ClickHouseMigrator, createClickHouseClient } from '@analytics/clickhouse';
import { CLICKHOUSE_MIGRATIONS } from '@analytics/runtime';
import { ChBoundQuery, projectScope } from '@analytics/tenancy';
import { temporaryDirectory } from '@analytics/testing';
import { loadavg } from 'node:os';
import { eventsDiskShareSql, eventsTableBytesSql, eventsUsageSql, storedEventsByProjectSql } from '@analytics/usage';
import { round } from './support/load';

const EVENTS = Number(process.env.USAGE_BENCH_EVENTS ?? 2_000_000);
const ROUNDS = Number(process.env.USAGE_BENCH_ROUNDS ?? 5);
const YEAR_MS = 365 * 86_400_000;

/** `events` rows of `project` over the year before 2026-11-01; `offset` starts the insert ids (a repeat stores duplicates). */
async function insert(client: ClickHouseClient, project: number, events: number, offset = 0): Promise<void> {
  await client.command({
    query: `INSERT INTO events (project_id, event, time, distinct_id, insert_id, properties, processed_at)
      SELECT ${project}, concat('Event ', toString(number % 8)),
        toDateTime64('2025-11-01 00:00:00', 3, 'UTC') + toIntervalMillisecond(intDiv(number * ${YEAR_MS}, ${events + offset})),
        concat('user-', toString(number % 100000)), concat('id-', toString(number)),
        concat('{"plan":"', ['free','pro','team'][number % 3 + 1], '","n":', toString(number % 1000), '}'), now64(3)
      FROM numbers(${offset}, ${events})`,
    clickhouse_settings: { max_partitions_per_insert_block: '0' },
  });
}

async function seconds(client: ClickHouseClient, { sql, params }: ChBoundQuery): Promise<number> {
  const started = process.hrtime.bigint();
  const result = await client.query({ query: sql, query_params: params, format: 'JSONEachRow' });
  await result.json();
  return Number(process.hrtime.bigint() - started) / 1e9;
}

async function main(): Promise<void> {
  const directory = temporaryDirectory('bench-usage');
  const client = createClickHouseClient(`chdb:${directory.path}`);
  const ddl = new ClickHouseDdl();
  try {
    await new ClickHouseMigrator(client, ddl).migrate(CLICKHOUSE_MIGRATIONS);
    await insert(client, 1, EVENTS);
    // A tenth of the project's rows again, same key: duplicates FINAL collapses.
    await insert(client, 1, Math.floor(EVENTS / 10));
    await insert(client, 2, Math.floor(EVENTS / 10));
    const scope = projectScope(1);
    const routeEvents = eventsUsageSql(scope, { from: '2026-08-03', to: '2026-10-31' });
    const queries: Record<string, ChBoundQuery> = {
      bare_count: { sql: 'SELECT count() AS n FROM events WHERE project_id = {p:UInt32}', params: { p: 1 } },
      route_events: routeEvents,
      // The same scan as stored, without FINAL: what deduplicating the duplicates costs.
      route_events_as_stored: { ...routeEvents, sql: routeEvents.sql.replace(' FINAL', '') },
      route_disk_share: eventsDiskShareSql(ddl, scope),
      gauges_events: storedEventsByProjectSql(),
      gauges_table_bytes: eventsTableBytesSql(ddl),
    };
    const times: Record<string, number[]> = Object.fromEntries(Object.keys(queries).map((name) => [name, []]));
    for (let i = 0; i < ROUNDS; i++) {
      for (const [name, query] of Object.entries(queries)) times[name].push(await seconds(client, query));
    }
    // Merged, as background merges leave old partitions: FINAL then skips single-part partitions.
    await client.command({ query: 'OPTIMIZE TABLE events FINAL' });
    times.route_events_merged = [];
    for (let i = 0; i < ROUNDS; i++) times.route_events_merged.push(await seconds(client, routeEvents));
    const figures: Record<string, number> = { events: EVENTS, rounds: ROUNDS, load: round(loadavg()[0], 2) };
    for (const [name, values] of Object.entries(times)) {
      const sorted = [...values].sort((a, b) => a - b);
      const [best, median, worst] = [sorted[0], sorted[Math.floor(sorted.length / 2)], sorted[sorted.length - 1]];
      process.stdout.write(
        `${name.padEnd(20)} best ${round(best * 1000)} ms, median ${round(median * 1000)} ms, worst ${round(worst * 1000)} ms\n`,
      );
      figures[`${name}_ms`] = round(best * 1000);
    }
    figures.route_events_vs_bare = round(figures.route_events_ms / figures.bare_count_ms, 1);
    figures.route_events_vs_as_stored = round(figures.route_events_ms / figures.route_events_as_stored_ms, 1);
    process.stdout.write(`${JSON.stringify(figures)}\n`);
  } finally {
    await client.close();
    directory.remove();
  }
}

void main().catch((error: unknown) => {
  process.stderr.write(`${(error as Error).stack ?? String(error)}\n`);
  process.exit(1);
});

/**
 * Query engine benchmark: 10M events of 1M users (and a profile each) generated inside ClickHouse,
 * then a 3-step funnel over 30 days, an insights report, one broken down by a profile property
 * (`user["plan"]`) and a retention report, each timed next to a hand-written ClickHouse query for
 * the same answer (asserted equal) in the same run; then flows (3 steps after sign-up), timed
 * alone; then each report's peak memory.
 *
 *   npm run bench:query                        # chDB in a temporary directory
 *   BENCH_CLICKHOUSE_URL=http://… npm run bench:query   # a ClickHouse server (a database you can drop)
 *   BENCH_EVENTS=1000000 BENCH_USERS=100000 BENCH_RUNS=5 npm run bench:query
 *   BENCH_DATA_DIR=/tmp/bench-query-data npm run bench:query   # keep the generated data; later runs reuse it
 *   BENCH_LOOKUP=1 npm run bench:query   # also insights by a 100k-row lookup table's column (BENCH_LOOKUP_ROWS)
 *   BENCH_LOOKUP=only npm run bench:query   # that comparison alone
 *
 * The last line is JSON: {funnel_ms, funnel_ratio, insights_ms, insights_ratio, retention_ms, retention_ratio,
 * merged_funnel_ms, merged_funnel_ratio, merged_insights_ms, merged_insights_ratio, flows_ms, flows_cpu_ms,
 * profile_breakdown_ms, profile_breakdown_ratio, *_peak_memory_mb per report, peak_memory_mb (the largest),
 * events, users} (medians over BENCH_RUNS
 * runs; ratio = ours / hand-written; merged ratio = ours on a copy of the project with 10% of its
 * users merged / ours on the project without merges, run alternately), then the same ratios in CPU
 * time (`*_cpu_ratio`, and `funnel_cpu_ms`): chDB runs in this process, whose CPU time is the
 * queries', and it varies far less than wall time when other work shares the cores. The funnel's and
 * insights' hand-written queries group by the stored `user_key`, as ours do; `*_ratio_vs_distinct_id`
 * are the ratios to the same queries grouping by `distinct_id` (the baseline before that column).
 * Peak memory: the least QUERY_MAX_MEMORY_MB under which the report passes (bisected to 8 MB).
 */
import {
  CLICKHOUSE_MEMORY_LIMIT_EXCEEDED,
  ClickHouseClient,
  clickHouseErrorCode,
  ClickHouseDdl,
  ClickHouseMigrator,
  createClickHouseClient,
  fillIdentityLookupSql,
  IDENTITY_LOOKUP_TABLE,
  IDENTITY_MAP_TABLE,
} from '@analytics/clickhouse';
import { EVENTS_TABLE, USER_KEY_COLUMN } from '@analytics/event-store';
import { PROFILES_MIRROR_TABLE } from '@analytics/profile-store';
import { CLICKHOUSE_MIGRATIONS } from '@analytics/runtime';
import { projectScope } from '@analytics/tenancy';
import { deepStrictEqual } from 'node:assert';
import { isDeepStrictEqual } from 'node:util';
import { mkdtempSync, rmSync } from 'node:fs';
import { fillLookupTable, lookupInsights, LOOKUP_ROWS } from './support/lookup-tables';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
// The engine without HTTP, as the service wires it: runner, repositories, specs and results.
import {
  DAY_MS,
  FlowsRepository,
  FlowsSpec,
  FunnelResult,
  funnelResult,
  FunnelsRepository,
  FunnelSpec,
  InsightsRepository,
  insightsResult,
  InsightsSpec,
  loadQuerySettings,
  parseDay,
  parseEventExpression,
  QueryRunner,
  RetentionRepository,
  RetentionResult,
  retentionResult,
  RetentionSpec,
  TimeZone,
} from '@analytics/query';

const EVENTS = Number(process.env.BENCH_EVENTS ?? 10_000_000);
const USERS = Number(process.env.BENCH_USERS ?? 1_000_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const PROJECT = 1;
/** The same events again, with 10% of the users merged. */
const MERGED_PROJECT = 2;
const FROM = '2024-01-01';
const TO = '2024-01-30';
const NOW = Date.UTC(2024, 2, 1);

/**
 * Each user gets EVENTS/USERS events a random 1 minute to 2 days apart from a random start in the
 * first 33 days: a page view first, then views, sign-ups, carts and purchases in proportions that
 * make a funnel with real drop-off. Times are distinct per user, as in most real data.
 */
const GENERATE = `INSERT INTO ${EVENTS_TABLE}
  SELECT {project:UInt32} AS project_id,
    multiIf(k = 0 OR r < 30, 'Viewed page', r < 45, 'Signed up', r < 55, 'Added to cart', r < 63, 'Purchased', ['Searched', 'Shared', 'Logged in'][1 + r % 3]) AS event,
    toDateTime64('2024-01-01 00:00:00', 3, 'UTC') + toIntervalMillisecond(start_ms + k * gap_ms) AS time,
    concat('user-', toString(u)) AS distinct_id,
    toString(n) AS insert_id,
    concat('{"plan":"', ['free', 'pro', 'team'][1 + cityHash64(n, 4) % 3], '","amount":', toString(cityHash64(n, 5) % 1000), '}') AS properties,
    now64(3) AS processed_at
  FROM (
    SELECT number AS n, number % {users:UInt64} AS u, intDiv(number, {users:UInt64}) AS k, cityHash64(number, 1) % 100 AS r,
      cityHash64(u, 2) % (33 * 86400000) AS start_ms, 60000 + cityHash64(u, 3) % (2 * 86400000) AS gap_ms
    FROM numbers({events:UInt64})
  )`;

/**
 * Identity merges for 10% of the users (docs/identity.md): every tenth user's id joins the next
 * user's cluster, whose id is canonical; rows as the identity writer writes them (the canonical id
 * points at itself).
 */
const COPY = `INSERT INTO ${EVENTS_TABLE} SELECT {merged:UInt32}, event, time, distinct_id, insert_id, properties, processed_at FROM ${EVENTS_TABLE} WHERE project_id = {project:UInt32}`;
const MERGE = `INSERT INTO ${IDENTITY_MAP_TABLE}
  SELECT {merged:UInt32}, concat('user-', toString(number * 10 + arrayJoin([0, 1]) AS side)), concat('user-', toString(number * 10 + 1)), -1, 0, 1
  FROM numbers(intDiv({users:UInt64}, 10))`;
/** One profile a user of the project, in the mirror reports join (a plan and a country each). */
const PROFILES = `INSERT INTO ${PROFILES_MIRROR_TABLE} (project_id, group_key, profile_id, properties, version, is_deleted, created_at, updated_at)
  SELECT {project:UInt32}, '', concat('user-', toString(number)),
    concat('{"plan":"', ['free', 'pro', 'team'][1 + cityHash64(number, 6) % 3], '","country":"', ['DE', 'US', 'JP', 'FR', 'BR'][1 + cityHash64(number, 7) % 5], '"}'),
    1, 0, now64(3), now64(3)
  FROM numbers({users:UInt64})`;

/** Their identity_lookup rows, as the identity writer writes them beside identity_map (docs/identity.md). */
const LOOKUP = fillIdentityLookupSql('project_id = {merged:UInt32}');

const funnel: FunnelSpec = {
  steps: [{ event: 'Viewed page' }, { event: 'Signed up' }, { event: 'Purchased' }],
  filters: [],
  windowMs: 7 * DAY_MS,
  calendarWindow: false,
  fromDay: parseDay(FROM)!,
  toDay: parseDay(TO)!,
  zone: TimeZone.UTC,
  buckets: { kind: 'days', days: 1 },
  limit: 255,
};

/** Three steps after each user's first sign-up of the 30 days (about 80% of the users sign up). */
const flows: FlowsSpec = {
  event: 'Signed up',
  direction: 'after',
  steps: 3,
  fromDay: parseDay(FROM)!,
  toDay: parseDay(TO)!,
  zone: TimeZone.UTC,
  limit: 10,
};

/** Buyers per day broken down by a profile property (the profile's plan): the profiles joined in the engine. */
const profileBreakdown: InsightsSpec = {
  metrics: [{ name: 'Purchased', event: 'Purchased', math: 'unique' }],
  fromDay: parseDay(FROM)!,
  toDay: parseDay(TO)!,
  zone: TimeZone.UTC,
  unit: 'day',
  on: parseEventExpression('on', 'user["plan"]'),
  limit: 10,
};

const insights: InsightsSpec = {
  metrics: [
    { name: 'Viewed page', event: 'Viewed page', math: 'total' },
    { name: 'Purchased', event: 'Purchased', math: 'unique' },
  ],
  fromDay: parseDay(FROM)!,
  toDay: parseDay(TO)!,
  zone: TimeZone.UTC,
  unit: 'day',
  limit: 60,
};

const retention: RetentionSpec = {
  type: 'birth',
  bornEvent: 'Signed up',
  event: 'Purchased',
  fromDay: parseDay(FROM)!,
  toDay: parseDay(TO)!,
  zone: TimeZone.UTC,
  buckets: { kind: 'days', days: 1 },
  intervalCount: 7,
  unbounded: false,
};

/**
 * What an analyst would write by hand for this funnel: no same-instant groups, no segments, three
 * fixed steps; events packed as (time << 2 | step), the same trick the engine uses. `user`: the
 * column telling users apart. The table stores each event's 128-bit person key (USER_KEY_COLUMN),
 * which a competent engineer would group by as ours does; grouping by `distinct_id` is the
 * baseline of the runs before that column existed, still timed for comparison.
 */
const handFunnelSql = (user: string) => `
SELECT bucket, counts, arrayMap(x -> toString(x), prev) AS previous_ms, arrayMap(x -> toString(x), fromStart) AS start_ms
FROM (
  SELECT b.1 AS bucket, sumForEach(arrayResize(CAST([], 'Array(UInt64)'), b.2, toUInt64(1))) AS counts,
    sumForEach(arrayMap((x, y) -> x - y, b.3, arrayPushFront(arrayPopBack(b.3), b.3[1]))) AS prev,
    sumForEach(arrayMap(x -> x - b.3[1], b.3)) AS fromStart
  FROM (
    SELECT arraySort(groupArray(bitOr(bitShiftLeft(toUInt64(toUnixTimestamp64Milli(time)), 2), multiIf(event = 'Viewed page', 0, event = 'Signed up', 1, 2)))) AS ev,
      arrayMap(x -> toInt64(bitShiftRight(x, 2)), ev) AS times, arrayMap(x -> bitAnd(x, 3), ev) AS steps, arrayEnumerate(times) AS idx,
      arrayPushBack(arrayPopFront(arrayReverseFill(x -> x != 0, arrayMap((i, s) -> if(s = 1, i, 0), idx, steps))), 0) AS nextSignup,
      arrayPushBack(arrayPopFront(arrayReverseFill(x -> x != 0, arrayMap((i, s) -> if(s = 2, i, 0), idx, steps))), 0) AS nextPurchase,
      arrayFilter((i, s, t) -> s = 0 AND t >= {fromMs:Int64} AND t < {toEndMs:Int64}, idx, steps, times) AS starts,
      arrayMap(s -> nextSignup[s], starts) AS signups,
      arrayMap(g -> if(g = 0, 0, nextPurchase[g]), signups) AS purchases,
      arrayMap((s, g, p) -> 1 + (g != 0 AND times[g] <= times[s] + {windowMs:Int64}) + (p != 0 AND times[p] <= times[s] + {windowMs:Int64}), starts, signups, purchases) AS depth,
      arrayMap(s -> intDiv(times[s], 86400000), starts) AS day,
      arraySort((o, d, x) -> (d, -x, o), arrayEnumerate(starts), day, depth) AS ord,
      arrayFilter((o, k) -> k = 1 OR day[o] != day[ord[k - 1]], ord, arrayEnumerate(ord)) AS chosen,
      arrayMap(o -> (day[o], depth[o], arraySlice([times[starts[o]], times[signups[o]], times[purchases[o]]], 1, depth[o])), chosen) AS best
    FROM ${EVENTS_TABLE} FINAL
    WHERE project_id = {project:UInt32} AND event IN ('Viewed page', 'Signed up', 'Purchased')
      AND time >= fromUnixTimestamp64Milli({fromMs:Int64}, 'UTC') AND time < fromUnixTimestamp64Milli({toEndMs:Int64} + {windowMs:Int64}, 'UTC')
    GROUP BY ${user}
  )
  ARRAY JOIN best AS b
  GROUP BY bucket
)`;

const handInsightsSql = (user: string) => `
SELECT intDiv(toUnixTimestamp64Milli(time), 86400000) * 86400000 AS key, countIf(event = 'Viewed page') AS views, uniqExactIf(${user}, event = 'Purchased') AS buyers
FROM ${EVENTS_TABLE} FINAL
WHERE project_id = {project:UInt32} AND event IN ('Viewed page', 'Purchased')
  AND time >= fromUnixTimestamp64Milli({fromMs:Int64}, 'UTC') AND time < fromUnixTimestamp64Milli({toEndMs:Int64}, 'UTC')
GROUP BY key`;

/** What an analyst would write for the breakdown: the events joined with the project's profiles. */
const HAND_PROFILE_BREAKDOWN = `
SELECT intDiv(toUnixTimestamp64Milli(e.time), 86400000) * 86400000 AS key, JSONExtractString(p.properties, 'plan') AS segment, uniqExact(e.${USER_KEY_COLUMN}) AS value
FROM ${EVENTS_TABLE} AS e FINAL
LEFT ANY JOIN (SELECT profile_id, properties FROM ${PROFILES_MIRROR_TABLE} FINAL WHERE project_id = {project:UInt32} AND group_key = '') AS p ON p.profile_id = e.distinct_id
WHERE e.project_id = {project:UInt32} AND e.event = 'Purchased'
  AND e.time >= fromUnixTimestamp64Milli({fromMs:Int64}, 'UTC') AND e.time < fromUnixTimestamp64Milli({toEndMs:Int64}, 'UTC')
GROUP BY key, segment`;

const HAND_RETENTION = `
SELECT intDiv(birth, 86400000) AS cohort, count() AS first, sumMap(intervals, arrayResize(CAST([], 'Array(UInt64)'), length(intervals), toUInt64(1))) AS returned
FROM (
  SELECT minIf(toUnixTimestamp64Milli(time), event = 'Signed up') AS birth,
    arrayDistinct(arrayFilter(i -> i <= 7, arrayMap(t -> intDiv(t - birth, 86400000), arrayFilter(t -> t >= birth, groupArrayIf(toUnixTimestamp64Milli(time), event = 'Purchased'))))) AS intervals
  FROM ${EVENTS_TABLE} FINAL
  WHERE project_id = {project:UInt32} AND ((event = 'Signed up' AND time < fromUnixTimestamp64Milli({toEndMs:Int64}, 'UTC'))
    OR (event = 'Purchased' AND time >= fromUnixTimestamp64Milli({fromMs:Int64}, 'UTC') AND time < fromUnixTimestamp64Milli({toEndMs:Int64} + 8 * 86400000, 'UTC')))
  GROUP BY distinct_id
  HAVING countIf(event = 'Signed up') > 0 AND birth >= {fromMs:Int64}
)
GROUP BY cohort`;

const rangeParams = {
  project: PROJECT,
  fromMs: funnel.fromDay * DAY_MS,
  toEndMs: (funnel.toDay + 1) * DAY_MS,
  windowMs: funnel.windowMs,
};

interface Timed<T> {
  ms: number;
  /** CPU time of this process (chDB runs in it, on every core it uses): steadier than wall time on a loaded machine. */
  cpuMs: number;
  result: T;
}

async function timed<T>(run: () => Promise<T>): Promise<Timed<T>> {
  const start = process.hrtime.bigint();
  const cpu = process.cpuUsage();
  const result = await run();
  const used = process.cpuUsage(cpu);
  return { ms: Number(process.hrtime.bigint() - start) / 1e6, cpuMs: (used.user + used.system) / 1000, result };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

interface Figures {
  ms: number;
  ratio: number;
  cpu_ms: number;
  cpu_ratio: number;
}

/**
 * `subject` and `baseline` once untimed, then alternately RUNS times each, `check` on every pair of answers; medians
 * of `subject` and their ratios to the baseline's, in wall and CPU time.
 */
async function compare<T>(
  label: string,
  subject: () => Promise<T>,
  baseline: () => Promise<T>,
  baselineName: string,
  check: (a: T, b: T) => void,
): Promise<Figures> {
  const times: Timed<T>[][] = [[], []];
  // One untimed run of each side first: the first run of a block paid for warming caches that the
  // later ones share, which put the first block's medians 5–10 % above the same SQL's later blocks.
  check(await subject(), await baseline());
  for (let run = 0; run < RUNS; run++) {
    const a = await timed(subject);
    const b = await timed(baseline);
    check(a.result, b.result);
    times[0].push(a);
    times[1].push(b);
  }
  const [ms, baseMs] = times.map((runs) => median(runs.map((t) => t.ms)));
  const [cpuMs, baseCpuMs] = times.map((runs) => median(runs.map((t) => t.cpuMs)));
  const list = (runs: Timed<T>[], key: 'ms' | 'cpuMs') => runs.map((t) => Math.round(t[key])).join('/');
  process.stdout.write(
    `${label}: ${list(times[0], 'ms')} ms (CPU ${list(times[0], 'cpuMs')}), ${baselineName} ${list(times[1], 'ms')} ms (CPU ${list(times[1], 'cpuMs')}), ` +
      `ratio ${(ms / baseMs).toFixed(2)}, CPU ratio ${(cpuMs / baseCpuMs).toFixed(2)}\n`,
  );
  return {
    ms: Math.round(ms),
    ratio: Number((ms / baseMs).toFixed(2)),
    cpu_ms: Math.round(cpuMs),
    cpu_ratio: Number((cpuMs / baseCpuMs).toFixed(2)),
  };
}

/** Ours and the hand-written query; the answers must be the same. */
const againstHand = <T>(name: string, ours: () => Promise<T>, hand: () => Promise<T>) =>
  compare(`${name} ours`, ours, hand, 'hand-written', (a, b) =>
    deepStrictEqual(a, b, `${name}: the hand-written query gives another answer`),
  );

/** Ours on the merged copy against the project without merges; merging must change the answer. */
const againstUnmerged = <T>(name: string, unmerged: () => Promise<T>, merged: () => Promise<T>) =>
  compare(`${name} with 10% of users merged`, merged, unmerged, 'unmerged', (a, b) => {
    if (isDeepStrictEqual(a, b)) throw new Error(`${name}: merging 10% of the users changed nothing`);
  });

async function rows<T>(client: ClickHouseClient, query: string, params: Record<string, unknown>): Promise<T[]> {
  return (await client.query({ query, query_params: params, format: 'JSONEachRow' })).json<T>();
}

/**
 * The least max_memory_usage (QUERY_MAX_MEMORY_MB) under which a report passes, bisected to 8 MB: its
 * peak as ClickHouse's memory tracker counts it against the cap (chDB keeps no system.query_log to
 * read it from, and a server's would need a flush; this works on both). Threads make it vary a little.
 */
async function peakMemoryMb(
  name: string,
  client: ClickHouseClient,
  report: (runner: QueryRunner) => Promise<unknown>,
): Promise<number> {
  const settings = loadQuerySettings({ QUERY_MAX_EXECUTION_SECONDS: '600' });
  const passes = (mb: number) =>
    report(new QueryRunner(client, { ...settings, maxMemoryBytes: mb * 1024 ** 2 })).then(
      () => true,
      (error: unknown) => {
        if (clickHouseErrorCode(error) === CLICKHOUSE_MEMORY_LIMIT_EXCEEDED) return false;
        throw error;
      },
    );
  let [low, high] = [0, 16_384];
  if (!(await passes(high))) throw new Error(`${name}: needs more than ${high} MB`);
  while (high - low > 8) {
    const middle = Math.floor((low + high) / 2);
    if (await passes(middle)) high = middle;
    else low = middle;
  }
  process.stdout.write(`${name}: peak memory ${high} MB\n`);
  return high;
}

/** Flows has no hand-written twin to compare with: its median time over RUNS runs (after one untimed), as the service runs it. */
async function flowsMeasured(runner: QueryRunner): Promise<{ ms: number; cpuMs: number }> {
  const repository = new FlowsRepository(runner);
  const run = () => repository.tally(projectScope(PROJECT), flows);
  const first = await run();
  if (first.people === 0) throw new Error('flows: no user signed up in the range');
  const runs: Timed<unknown>[] = [];
  for (let i = 0; i < RUNS; i++) runs.push(await timed(run));
  const list = (key: 'ms' | 'cpuMs') => runs.map((t) => Math.round(t[key])).join('/');
  process.stdout.write(
    `flows: ${list('ms')} ms (CPU ${list('cpuMs')}), ` + `${first.people} people, ${first.distinctPaths} paths\n`,
  );
  return {
    ms: Math.round(median(runs.map((t) => t.ms))),
    cpuMs: Math.round(median(runs.map((t) => t.cpuMs))),
  };
}

async function generate(client: ClickHouseClient): Promise<void> {
  const start = Date.now();
  await new ClickHouseMigrator(client, new ClickHouseDdl()).migrate(CLICKHOUSE_MIGRATIONS);
  // A kept directory (BENCH_DATA_DIR) already holding this size of data skips the minutes of generating it.
  const [held] = await rows<{ events: number; users: number }>(
    client,
    `SELECT count() AS events, uniqExact(distinct_id) AS users FROM ${EVENTS_TABLE} WHERE project_id = {merged:UInt32}`,
    { merged: MERGED_PROJECT },
  );
  if (Number(held.events) === EVENTS && Number(held.users) === USERS) {
    // Directories generated before the bench filled identity_lookup (or the profiles) have it empty.
    const [lookup] = await rows<{ n: number }>(client, `SELECT count() AS n FROM ${IDENTITY_LOOKUP_TABLE}`, {});
    if (Number(lookup.n) === 0) await client.command({ query: LOOKUP, query_params: { merged: MERGED_PROJECT } });
    const [profiles] = await rows<{ n: number }>(client, `SELECT count() AS n FROM ${PROFILES_MIRROR_TABLE}`, {});
    if (Number(profiles.n) === 0)
      await client.command({ query: PROFILES, query_params: { project: PROJECT, users: USERS } });
    process.stdout.write(`reusing ${held.events} events of ${held.users} users\n`);
    return;
  }
  if (Number(held.events) !== 0)
    throw new Error(
      `BENCH_DATA_DIR holds ${held.events} events of ${held.users} users, not ${EVENTS} of ${USERS}: use another directory`,
    );
  await client.command({
    query: GENERATE,
    query_params: { project: PROJECT, users: USERS, events: EVENTS },
    clickhouse_settings: { max_insert_block_size: '1048576' },
  });
  await client.command({
    query: COPY,
    query_params: { project: PROJECT, merged: MERGED_PROJECT },
    clickhouse_settings: { max_insert_block_size: '1048576' },
  });
  await client.command({ query: MERGE, query_params: { merged: MERGED_PROJECT, users: USERS } });
  await client.command({ query: LOOKUP, query_params: { merged: MERGED_PROJECT } });
  await client.command({ query: PROFILES, query_params: { project: PROJECT, users: USERS } });
  // A merged table, as a live one is between background merges: FINAL then has nothing left to collapse.
  await client.command({ query: `OPTIMIZE TABLE ${EVENTS_TABLE} FINAL` });
  const [stats] = await rows<{ events: number; users: number }>(
    client,
    `SELECT count() AS events, uniqExact(distinct_id) AS users FROM ${EVENTS_TABLE} WHERE project_id = {project:UInt32}`,
    { project: PROJECT },
  );
  process.stdout.write(
    `generated ${stats.events} events of ${stats.users} users in ${Math.round((Date.now() - start) / 1000)} s\n`,
  );
}

/** The insights report by a lookup table's column against the same report computed from the property. */
async function lookupFigures(client: ClickHouseClient, runner: QueryRunner): Promise<Figures> {
  const repository = new InsightsRepository(runner);
  const [withTable, computed] = lookupInsights(insights, await fillLookupTable(client, PROJECT));
  const series = async (spec: InsightsSpec) =>
    insightsResult(spec, await repository.tally(projectScope(PROJECT), spec), NOW).series;
  return compare(
    `insights by a ${LOOKUP_ROWS}-row lookup table`,
    () => series(withTable),
    () => series(computed),
    'computed from the property',
    (a, b) => deepStrictEqual(a, b, 'the lookup table gives another answer than the property'),
  );
}

async function main(): Promise<void> {
  const kept = process.env.BENCH_DATA_DIR;
  const directory = process.env.BENCH_CLICKHOUSE_URL || kept ? undefined : mkdtempSync(join(tmpdir(), 'bench-query-'));
  const client = createClickHouseClient(
    process.env.BENCH_CLICKHOUSE_URL ?? `chdb:${kept ?? join(directory!, 'clickhouse')}`,
  );
  try {
    await generate(client);
    const runner = new QueryRunner(client, loadQuerySettings({ QUERY_MAX_EXECUTION_SECONDS: '600' }));
    if (process.env.BENCH_LOOKUP === 'only') {
      const figures = await lookupFigures(client, runner);
      process.stdout.write(
        `${JSON.stringify({ lookup_insights_ms: figures.ms, lookup_insights_ratio: figures.ratio, lookup_insights_cpu_ratio: figures.cpu_ratio })}\n`,
      );
      return;
    }

    const funnels = new FunnelsRepository(runner);
    const handFunnel = (user: string) => async (): Promise<FunnelResult> => {
      const handRows = await rows<{ bucket: number; counts: number[]; previous_ms: string[]; start_ms: string[] }>(
        client,
        handFunnelSql(user),
        rangeParams,
      );
      const cells = handRows.map((row) => ({
        bucket: Number(row.bucket),
        segment: '',
        counts: [0, 1, 2].map((i) => Number(row.counts[i] ?? 0)),
        fromPreviousMs: [0, 1, 2].map((i) => BigInt(row.previous_ms[i] ?? 0)),
        fromStartMs: [0, 1, 2].map((i) => BigInt(row.start_ms[i] ?? 0)),
      }));
      return funnelResult(funnel, { cells });
    };
    const ourFunnel = async () => funnelResult(funnel, await funnels.tally(projectScope(PROJECT), funnel));
    const funnelFigures = await againstHand('funnel', ourFunnel, handFunnel(USER_KEY_COLUMN));
    const funnelByIdFigures = await againstHand(
      'funnel (hand-written by distinct_id)',
      ourFunnel,
      handFunnel('distinct_id'),
    );

    const insightsRepository = new InsightsRepository(runner);
    const handInsights = (user: string) => async () => {
      const handRows = await rows<{ key: number; views: number; buyers: number }>(
        client,
        handInsightsSql(user),
        rangeParams,
      );
      const cells = handRows.flatMap((row) => [
        { metric: 0, key: Number(row.key), segment: '$overall', value: Number(row.views) },
        { metric: 1, key: Number(row.key), segment: '$overall', value: Number(row.buyers) },
      ]);
      return insightsResult(insights, { cells }, NOW);
    };
    const ourInsights = async () =>
      insightsResult(insights, await insightsRepository.tally(projectScope(PROJECT), insights), NOW);
    const insightsFigures = await againstHand('insights', ourInsights, handInsights(USER_KEY_COLUMN));
    const insightsByIdFigures = await againstHand(
      'insights (hand-written by distinct_id)',
      ourInsights,
      handInsights('distinct_id'),
    );

    // The segments' cells, sorted: the hand-written query has no overall series and no ranking.
    const segmentCells = (cells: { key: number; segment: string; value: number }[]) =>
      cells
        .filter((cell) => cell.segment !== '$overall')
        .map((cell) => `${cell.key} ${cell.segment} ${cell.value}`)
        .sort();
    const profileBreakdownFigures = await compare(
      'insights by a profile property ours',
      async () => segmentCells((await insightsRepository.tally(projectScope(PROJECT), profileBreakdown)).cells),
      async () =>
        segmentCells(
          (
            await rows<{ key: number; segment: string; value: number }>(client, HAND_PROFILE_BREAKDOWN, rangeParams)
          ).map((row) => ({ key: Number(row.key), segment: row.segment, value: Number(row.value) })),
        ),
      'hand-written (every profile joined)',
      (a, b) => deepStrictEqual(a, b, 'profile breakdown: the hand-written query gives another answer'),
    );

    const retentionRepository = new RetentionRepository(runner);
    const handRetention = async (): Promise<RetentionResult> => {
      const handRows = await rows<{ cohort: number; first: number; returned: [number[], number[]] }>(
        client,
        HAND_RETENTION,
        rangeParams,
      );
      const cohorts = handRows.map((row) => ({
        cohort: Number(row.cohort),
        first: Number(row.first),
        returned: new Map(row.returned[0].map((key, i) => [Number(key), Number(row.returned[1][i])])),
        lastReturned: new Map<number, number>(),
      }));
      return retentionResult(retention, cohorts);
    };
    const retentionFigures = await againstHand(
      'retention',
      async () => retentionResult(retention, await retentionRepository.cohorts(projectScope(PROJECT), retention)),
      handRetention,
    );

    // The same queries on the copy with 10% of the users merged: what resolving ids costs (the funnel joins identity_map; insights' unique count looks ids up in identity_lookup).
    const mergedFunnel = await againstUnmerged(
      'funnel',
      () => funnels.tally(projectScope(PROJECT), funnel),
      () => funnels.tally(projectScope(MERGED_PROJECT), funnel),
    );
    const mergedInsights = await againstUnmerged(
      'insights',
      () => insightsRepository.tally(projectScope(PROJECT), insights),
      () => insightsRepository.tally(projectScope(MERGED_PROJECT), insights),
    );

    const flowsFigures = await flowsMeasured(runner);
    // The same insights report broken down and filtered by a lookup table's column, against the property computed in place.
    const lookup = process.env.BENCH_LOOKUP ? await lookupFigures(client, runner) : undefined;

    // Each report's peak memory, after the timings (the bisection runs each report about 11 times).
    const scope = projectScope(PROJECT);
    const peaks = {
      funnel: await peakMemoryMb('funnel', client, (r) => new FunnelsRepository(r).tally(scope, funnel)),
      insights: await peakMemoryMb('insights', client, (r) => new InsightsRepository(r).tally(scope, insights)),
      retention: await peakMemoryMb('retention', client, (r) => new RetentionRepository(r).cohorts(scope, retention)),
      flows: await peakMemoryMb('flows', client, (r) => new FlowsRepository(r).tally(scope, flows)),
      profile_breakdown: await peakMemoryMb('insights by a profile property', client, (r) =>
        new InsightsRepository(r).tally(scope, profileBreakdown),
      ),
      merged_funnel: await peakMemoryMb('funnel, 10% merged', client, (r) =>
        new FunnelsRepository(r).tally(projectScope(MERGED_PROJECT), funnel),
      ),
    };

    process.stdout.write(
      `${JSON.stringify({
        funnel_ms: funnelFigures.ms,
        funnel_ratio: funnelFigures.ratio,
        insights_ms: insightsFigures.ms,
        insights_ratio: insightsFigures.ratio,
        retention_ms: retentionFigures.ms,
        retention_ratio: retentionFigures.ratio,
        merged_funnel_ms: mergedFunnel.ms,
        merged_funnel_ratio: mergedFunnel.ratio,
        merged_insights_ms: mergedInsights.ms,
        merged_insights_ratio: mergedInsights.ratio,
        funnel_cpu_ms: funnelFigures.cpu_ms,
        funnel_cpu_ratio: funnelFigures.cpu_ratio,
        insights_cpu_ratio: insightsFigures.cpu_ratio,
        retention_cpu_ratio: retentionFigures.cpu_ratio,
        funnel_ratio_vs_distinct_id: funnelByIdFigures.ratio,
        funnel_cpu_ratio_vs_distinct_id: funnelByIdFigures.cpu_ratio,
        insights_ratio_vs_distinct_id: insightsByIdFigures.ratio,
        insights_cpu_ratio_vs_distinct_id: insightsByIdFigures.cpu_ratio,
        merged_funnel_cpu_ratio: mergedFunnel.cpu_ratio,
        merged_insights_cpu_ratio: mergedInsights.cpu_ratio,
        flows_ms: flowsFigures.ms,
        flows_cpu_ms: flowsFigures.cpuMs,
        flows_peak_memory_mb: peaks.flows,
        profile_breakdown_ms: profileBreakdownFigures.ms,
        profile_breakdown_ratio: profileBreakdownFigures.ratio,
        profile_breakdown_cpu_ms: profileBreakdownFigures.cpu_ms,
        profile_breakdown_peak_memory_mb: peaks.profile_breakdown,
        funnel_peak_memory_mb: peaks.funnel,
        insights_peak_memory_mb: peaks.insights,
        retention_peak_memory_mb: peaks.retention,
        merged_funnel_peak_memory_mb: peaks.merged_funnel,
        peak_memory_mb: Math.max(...Object.values(peaks)),
        events: EVENTS,
        users: USERS,
        ...(lookup && {
          lookup_insights_ms: lookup.ms,
          lookup_insights_ratio: lookup.ratio,
          lookup_insights_cpu_ratio: lookup.cpu_ratio,
        }),
      })}\n`,
    );
  } finally {
    await client.close();
    if (directory) rmSync(directory, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${(error as Error).stack ?? String(error)}\n`);
  process.exit(1);
});

/**
 * `npm run bench:export`: a full-range raw export of EXPORT_BENCH_EVENTS (default 1,000,000) events
 * through HTTP (uncompressed; once more with gzip), next to ClickHouse producing the same rows as
 * FORMAT JSONEachRow in the same run, best of EXPORT_BENCH_ROUNDS rounds each; the server's peak
 * RSS is sampled from /proc. Then the same for EXPORT_BENCH_LARGE_EVENTS (default
 * 50,000; 0 skips it) events carrying EXPORT_BENCH_LARGE_BYTES (default 20,000) more bytes each.
 * Last line: one JSON object of the figures (the large run's prefixed `large_`).
 *
 * The server is the standalone (export and management), with chDB in-process and, unless
 * EXPORT_BENCH_POSTGRES_URL names a Postgres server's admin URL (a fresh database per size), PGlite:
 * both engines' memory counts in its RSS, so the figures say how much of it is libchdb's mapped code.
 * BENCH_CLICKHOUSE=server: the server talks HTTP (as in production) to a ClickHouse stand-in
 * (bench/support/clickhouse-server.ts) started on the same data for each round; its peak RSS and
 * CPU are reported as the engine's. CPU per exported event is measured from /proc in both modes.
 * EXPORT_BENCH_NODE_OPTIONS: NODE_OPTIONS for the server (e.g. `--cpu-prof --cpu-prof-dir=<dir>`).
 */
import 'reflect-metadata';
import { ClickHouseDdl, ClickHouseMigrator, createClickHouseClient } from '@analytics/clickhouse';
import { CLICKHOUSE_MIGRATIONS } from '@analytics/runtime';
import { createPostgresDatabase, spawnService, temporaryDirectory } from '@analytics/testing';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { get, IncomingMessage } from 'node:http';
import { createGunzip } from 'node:zlib';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { clickhouseMode, startClickHouseEngine } from './support/clickhouse-engine';
import { cpuSecondsOf, memoryOf, residentOf } from './support/processes';

const EVENTS = Number(process.env.EXPORT_BENCH_EVENTS ?? 1_000_000);
const LARGE_EVENTS = Number(process.env.EXPORT_BENCH_LARGE_EVENTS ?? 50_000);
const LARGE_BYTES = Number(process.env.EXPORT_BENCH_LARGE_BYTES ?? 20_000);
/** Rounds per size (EXPORT_BENCH_ROUNDS, default 3); the best of each side is reported. */
const ROUNDS = Number(process.env.EXPORT_BENCH_ROUNDS ?? 3);
const PORT = 18_500 + Math.floor(Math.random() * 1000);
const SECRET = 'bench-export-secret-0001';
const DAYS = 30;
const POSTGRES_ADMIN = process.env.EXPORT_BENCH_POSTGRES_URL;
const CLICKHOUSE = clickhouseMode();

/** Resident MB in total, and of it the process's own (anonymous) memory, without mapped files such as libchdb's code. */
function rssMb(pid: number): { total: number; anon: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (name: string) => Number(new RegExp(`${name}:\\s+(\\d+) kB`).exec(status)?.[1] ?? 0) / 1024;
  return { total: kb('VmRSS'), anon: kb('RssAnon') };
}

/**
 * 20 custom properties of mixed JSON types per event, generated inside ClickHouse; `padBytes` adds
 * a property of that many hex characters (random, so the store cannot compress it away).
 */
async function generate(dir: string, from: Date, events: number, padBytes: number): Promise<void> {
  const client = createClickHouseClient(`chdb:${dir}`);
  try {
    await new ClickHouseMigrator(client, new ClickHouseDdl()).migrate(CLICKHOUSE_MIGRATIONS);
    await client.command({
      query: `INSERT INTO events
        SELECT 1, concat('Event ', toString(number % 8)),
          toDateTime64({from:DateTime64(3, 'UTC')}, 3, 'UTC') + toIntervalMillisecond(number * intDiv(${DAYS} * 86400000, ${events})),
          concat('user-', toString(number % 100000)), toString(generateUUIDv4()),
          concat('{"plan":"', ['free','pro','team'][number % 3 + 1], '","price":', toString(number % 997 / 10),
            ',"count":', toString(number % 1000), ',"flag":', if(number % 2 = 0, 'true', 'false'), ',"nothing":null',
            ',"tags":["a","b","', toString(number % 50), '"],"nested":{"k":"v","n":', toString(number % 7), '}',
            ',"$browser":"Chrome","$os":"Linux","$city":"Paris","campaign":"spring-sale","ref":"https://example.com/p/', toString(number % 500), '"',
            ',"p1":1,"p2":"two","p3":3.5,"p4":false,"p5":"five","p6":6,"p7":"seven"',
            ${padBytes > 0 ? `',"pad":"', hex(randomString(${Math.ceil(padBytes / 2)})), '"'` : "''"}, '}'),
          now64(3)
        FROM numbers(${events})`,
      query_params: { from: from.toISOString().replace('T', ' ').replace('Z', '') },
    });
  } finally {
    await client.close();
  }
}

/** ClickHouse alone: the same deduplicated rows as JSONEachRow, read to the end. */
async function engineBaseline(dir: string): Promise<{ seconds: number; bytes: number }> {
  const client = createClickHouseClient(`chdb:${dir}`);
  try {
    const started = process.hrtime.bigint();
    const result = await client.exec({
      query:
        'SELECT event, time, distinct_id, insert_id, properties, processed_at FROM events FINAL WHERE project_id = 1 FORMAT JSONEachRow',
    });
    let bytes = 0;
    for await (const chunk of result.stream) bytes += (chunk as Buffer).length;
    return { seconds: Number(process.hrtime.bigint() - started) / 1e9, bytes };
  } finally {
    await client.close();
  }
}

/**
 * One export as an HTTP client sees it, read with node:http so the client does no more than count
 * lines. Uncompressed unless `gzip` (fetch would ask for gzip on its own and inflate it client-side).
 */
async function download(url: string, gzip: boolean): Promise<{ seconds: number; bytes: number; lines: number }> {
  const started = process.hrtime.bigint();
  const headers: Record<string, string> = {
    Authorization: `Basic ${Buffer.from(`${SECRET}:`).toString('base64')}`,
    'Accept-Encoding': gzip ? 'gzip' : 'identity',
  };
  const response = await new Promise<IncomingMessage>((resolve, reject) =>
    get(url, { headers }, resolve).on('error', reject),
  );
  const body: AsyncIterable<Buffer> = gzip ? response.pipe(createGunzip()) : response;
  if (response.statusCode !== 200) throw new Error(`export answered ${response.statusCode}`);
  let bytes = 0;
  let lines = 0;
  // Compressed bytes are counted as they arrive; lines after inflating (a gzip export's own cost).
  if (gzip) response.on('data', (chunk: Buffer) => (bytes += chunk.length));
  for await (const chunk of body) {
    if (!gzip) bytes += chunk.length;
    for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) lines++;
  }
  return { seconds: Number(process.hrtime.bigint() - started) / 1e9, bytes, lines };
}

/** Until `url` answers 200: the secret is printed before the port opens, and not at all on a restart. */
async function answering(url: string): Promise<void> {
  for (const deadline = Date.now() + 60_000; ; await new Promise((resolve) => setTimeout(resolve, 100))) {
    const status = await fetch(url).then(
      (response) => response.arrayBuffer().then(() => response.status),
      () => 0,
    );
    if (status === 200) return;
    if (Date.now() > deadline) throw new Error(`${url} did not answer 200 within 60 s`);
  }
}

interface RunFigures {
  events: number;
  events_per_s: number;
  mb_per_s: number;
  engine_events_per_s: number;
  engine_mb_per_s: number;
  ratio: number;
  rss_mb: number;
  rss_anon_mb: number;
  /** Of the peak, libchdb's code and data mapped from its file (the engine's, absent beside a ClickHouse server). */
  rss_chdb_library_mb: number;
  rss_idle_mb: number;
  gzip_events_per_s: number;
  /** The export server's CPU per exported event (the fastest plain round), µs. */
  cpu_us_per_event: number;
  /** The stand-in's peak RSS and CPU per event (BENCH_CLICKHOUSE=server), else 0: the engine is in the server. */
  engine_rss_mb: number;
  cpu_us_per_event_engine: number;
}

/** Exports of `events` events (plus `padBytes` each) against the engine alone on the same data. */
async function run(events: number, padBytes: number): Promise<RunFigures & { line_bytes: number }> {
  const data = temporaryDirectory('bench-export');
  const clickhouseDir = join(data.path, 'clickhouse');
  const from = new Date(Date.now() - (DAYS + 1) * 86_400_000);
  from.setUTCHours(0, 0, 0, 0);
  const to = new Date(from.getTime() + DAYS * 86_400_000);
  const database = POSTGRES_ADMIN
    ? await createPostgresDatabase(POSTGRES_ADMIN, `bench_export_${randomBytes(4).toString('hex')}`)
    : undefined;
  try {
    process.stdout.write(
      `generating ${events} events${padBytes ? ` of ~${padBytes} extra bytes` : ''} over ${DAYS} days…\n`,
    );
    await generate(clickhouseDir, from, events, padBytes);

    // Rounds alternate the export and the engine alone; the best of each is the figure least
    // disturbed by other work on the machine, and every round is printed to show the spread.
    let peakRss = 0;
    let peakAnon = 0;
    let peakLibrary = 0;
    let idleRss = Infinity;
    let exported = { seconds: Infinity, bytes: 0, lines: 0 };
    let gzipped = { seconds: Infinity, bytes: 0, lines: 0 };
    let engine = { seconds: Infinity, bytes: 0 };
    let cpu = { server: 0, engine: 0 };
    let enginePeakRss = 0;
    for (let round = 1; round <= ROUNDS; round++) {
      // Per round, so the engine baseline below (chDB in this process) has the directory to itself.
      const standIn = await startClickHouseEngine(CLICKHOUSE, 'clickhouse', clickhouseDir);
      const server = spawnService('standalone', {
        DATA_DIR: data.path,
        PORT: String(PORT),
        HOST: '127.0.0.1',
        LOG_LEVEL: 'warn',
        SERVICES: 'export,management',
        BOOTSTRAP_PROJECT_SECRET: SECRET,
        EXPORT_LIMIT_PER_SECOND: '100',
        ...(database ? { DATABASE_URL: database.url } : {}),
        ...(standIn.process ? { CLICKHOUSE_URL: standIn.url } : {}),
        // e.g. --cpu-prof --cpu-prof-dir=<dir>: where the server's CPU goes.
        ...(process.env.EXPORT_BENCH_NODE_OPTIONS ? { NODE_OPTIONS: process.env.EXPORT_BENCH_NODE_OPTIONS } : {}),
      });
      const enginePid = standIn.process?.pid;
      let roundCpu = { server: 0, engine: 0 };
      let plain = { seconds: 0, bytes: 0, lines: 0 };
      let gzip = { seconds: 0, bytes: 0, lines: 0 };
      try {
        if (round === 1) await server.waitForOutput(/project secret/, 60_000); // printed once the project exists
        await answering(`http://127.0.0.1:${PORT}/readyz`);
        const idle = rssMb(server.child.pid!);
        const idleLibrary = residentOf(server.child.pid!)?.chdbLibraryMb ?? NaN;
        let roundRss = 0;
        let roundAnon = 0;
        let roundLibrary = 0;
        const sampler = setInterval(() => {
          const rss = rssMb(server.child.pid!);
          roundAnon = Math.max(roundAnon, rss.anon);
          if (rss.total <= roundRss) return;
          roundRss = rss.total;
          // smaps only at a new peak: reading it is far dearer than the status line.
          roundLibrary = residentOf(server.child.pid!)?.chdbLibraryMb ?? NaN;
        }, 50);
        const url = `http://127.0.0.1:${PORT}/api/2.0/export?from_date=${from.toISOString().slice(0, 10)}&to_date=${to.toISOString().slice(0, 10)}`;
        const cpuBefore = { server: cpuSecondsOf(server.child.pid!), engine: enginePid ? cpuSecondsOf(enginePid) : 0 };
        plain = await download(url, false);
        roundCpu = {
          server: ((cpuSecondsOf(server.child.pid!) - cpuBefore.server) / events) * 1e6,
          engine: enginePid ? ((cpuSecondsOf(enginePid) - cpuBefore.engine) / events) * 1e6 : 0,
        };
        if (round === 1) gzip = await download(url, true);
        clearInterval(sampler);
        if (roundRss > peakRss) [peakRss, peakLibrary] = [roundRss, roundLibrary];
        peakAnon = Math.max(peakAnon, roundAnon);
        idleRss = Math.min(idleRss, idle.total);
        const engineRss = enginePid ? (memoryOf(enginePid)?.peakRssMb ?? 0) : 0;
        enginePeakRss = Math.max(enginePeakRss, engineRss);
        process.stdout.write(
          `round ${round}: server RSS idle ${idle.total.toFixed(0)} MB (anonymous ${idle.anon.toFixed(0)}, libchdb ${idleLibrary.toFixed(0)}), ` +
            `peak ${roundRss.toFixed(0)} MB (anonymous ${roundAnon.toFixed(0)}, libchdb ${roundLibrary.toFixed(0)}); Postgres ${database ? 'server' : 'PGlite in-process'}; ` +
            `cpu per event ${roundCpu.server.toFixed(1)} µs` +
            (enginePid
              ? `; ClickHouse stand-in peak RSS ${engineRss.toFixed(0)} MB, cpu per event ${roundCpu.engine.toFixed(1)} µs`
              : '') +
            '\n',
        );
      } finally {
        await server.stop();
        await standIn.process?.stop(10_000);
      }
      for (const { lines } of round === 1 ? [plain, gzip] : [plain])
        if (lines !== events) throw new Error(`exported ${lines} events, expected ${events}`);
      const alone = await engineBaseline(clickhouseDir);
      process.stdout.write(
        `round ${round}: export ${plain.seconds.toFixed(2)} s, ${(plain.bytes / 1e6).toFixed(0)} MB;${round === 1 ? ` gzip ${gzip.seconds.toFixed(2)} s, ${(gzip.bytes / 1e6).toFixed(0)} MB;` : ''} engine alone ${alone.seconds.toFixed(2)} s; load ${loadavg()[0].toFixed(1)}\n`,
      );
      if (plain.seconds < exported.seconds) [exported, cpu] = [plain, roundCpu];
      if (round === 1) gzipped = gzip;
      if (alone.seconds < engine.seconds) engine = alone;
    }
    return {
      events,
      events_per_s: Math.round(events / exported.seconds),
      mb_per_s: Math.round(exported.bytes / 1e6 / exported.seconds),
      engine_events_per_s: Math.round(events / engine.seconds),
      engine_mb_per_s: Math.round(engine.bytes / 1e6 / engine.seconds),
      ratio: Number((engine.seconds / exported.seconds).toFixed(2)),
      rss_mb: Math.round(peakRss),
      rss_anon_mb: Math.round(peakAnon),
      rss_chdb_library_mb: Math.round(peakLibrary),
      rss_idle_mb: Math.round(idleRss),
      gzip_events_per_s: Math.round(events / gzipped.seconds),
      cpu_us_per_event: Number(cpu.server.toFixed(1)),
      engine_rss_mb: Math.round(enginePeakRss),
      cpu_us_per_event_engine: Number(cpu.engine.toFixed(1)),
      line_bytes: Math.round(exported.bytes / events),
    };
  } finally {
    data.remove();
    await database?.dispose();
  }
}

async function main(): Promise<void> {
  const { line_bytes: _, ...small } = await run(EVENTS, 0);
  const figures: Record<string, number | string> = {
    ...small,
    postgres_server: POSTGRES_ADMIN ? 1 : 0,
    clickhouse: CLICKHOUSE,
  };
  if (LARGE_EVENTS > 0) {
    const { line_bytes, ...large } = await run(LARGE_EVENTS, LARGE_BYTES);
    figures.large_event_bytes = line_bytes;
    for (const [name, value] of Object.entries(large)) figures[`large_${name}`] = value;
  }
  process.stdout.write(`${JSON.stringify(figures)}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`${(error as Error).stack ?? String(error)}\n`);
  process.exit(1);
});

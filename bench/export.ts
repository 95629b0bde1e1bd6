/**
 * `npm run bench:export`: a full-range raw export of EXPORT_BENCH_EVENTS (default 1,000,000) events
 * through HTTP, next to ClickHouse producing the same rows as FORMAT JSONEachRow in the same run;
 * the server's peak RSS is sampled from /proc. Last line: one JSON object of the figures.
 */
import 'reflect-metadata';
import { ClickHouseDdl, ClickHouseMigrator, createClickHouseClient } from '@analytics/clickhouse';
import { spawnService, temporaryDirectory } from '@analytics/testing';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const EVENTS = Number(process.env.EXPORT_BENCH_EVENTS ?? 1_000_000);
const PORT = 18_500 + Math.floor(Math.random() * 1000);
const SECRET = 'bench-export-secret-0001';
const DAYS = 30;

function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? 0) / 1024;
}

/** 20 custom properties of mixed JSON types per event, generated inside ClickHouse. */
async function generate(dir: string, from: Date): Promise<void> {
  const client = createClickHouseClient(`chdb:${dir}`);
  try {
    await new ClickHouseMigrator(client, new ClickHouseDdl()).migrate();
    await client.command({
      query: `INSERT INTO events
        SELECT 1, concat('Event ', toString(number % 8)),
          toDateTime64({from:DateTime64(3, 'UTC')}, 3, 'UTC') + toIntervalMillisecond(number * intDiv(${DAYS} * 86400000, ${EVENTS})),
          concat('user-', toString(number % 100000)), toString(generateUUIDv4()),
          concat('{"plan":"', ['free','pro','team'][number % 3 + 1], '","price":', toString(number % 997 / 10),
            ',"count":', toString(number % 1000), ',"flag":', if(number % 2 = 0, 'true', 'false'), ',"nothing":null',
            ',"tags":["a","b","', toString(number % 50), '"],"nested":{"k":"v","n":', toString(number % 7), '}',
            ',"$browser":"Chrome","$os":"Linux","$city":"Paris","campaign":"spring-sale","ref":"https://example.com/p/', toString(number % 500), '"',
            ',"p1":1,"p2":"two","p3":3.5,"p4":false,"p5":"five","p6":6,"p7":"seven"}'),
          now64(3)
        FROM numbers(${EVENTS})`,
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
    const result = await client.exec({ query: 'SELECT event, time, distinct_id, insert_id, properties, processed_at FROM events FINAL WHERE project_id = 1 FORMAT JSONEachRow' });
    let bytes = 0;
    for await (const chunk of result.stream) bytes += (chunk as Buffer).length;
    return { seconds: Number(process.hrtime.bigint() - started) / 1e9, bytes };
  } finally {
    await client.close();
  }
}

async function main(): Promise<void> {
  const data = temporaryDirectory('bench-export');
  const clickhouseDir = join(data.path, 'clickhouse');
  const from = new Date(Date.now() - (DAYS + 1) * 86_400_000);
  from.setUTCHours(0, 0, 0, 0);
  const to = new Date(from.getTime() + DAYS * 86_400_000);
  try {
    process.stdout.write(`generating ${EVENTS} events over ${DAYS} days…\n`);
    await generate(clickhouseDir, from);

    const server = spawnService('standalone', {
      DATA_DIR: data.path,
      PORT: String(PORT),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      SERVICES: 'export,management',
      BOOTSTRAP_PROJECT_SECRET: SECRET,
      EXPORT_LIMIT_PER_SECOND: '100',
    });
    let peakRss = 0;
    let exported = { seconds: 0, bytes: 0, lines: 0 };
    try {
      await server.waitForOutput(/project secret/, 60_000); // printed once the project exists
      const idleRss = rssMb(server.child.pid!);
      const sampler = setInterval(() => (peakRss = Math.max(peakRss, rssMb(server.child.pid!))), 50);
      const started = process.hrtime.bigint();
      const response = await fetch(`http://127.0.0.1:${PORT}/api/2.0/export?from_date=${from.toISOString().slice(0, 10)}&to_date=${to.toISOString().slice(0, 10)}`, {
        headers: { Authorization: `Basic ${Buffer.from(`${SECRET}:`).toString('base64')}` },
      });
      if (response.status !== 200) throw new Error(`export answered ${response.status}: ${await response.text()}`);
      let bytes = 0;
      let lines = 0;
      for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
        bytes += chunk.length;
        for (const byte of chunk) if (byte === 10) lines++;
      }
      exported = { seconds: Number(process.hrtime.bigint() - started) / 1e9, bytes, lines };
      clearInterval(sampler);
      process.stdout.write(`server RSS idle ${idleRss.toFixed(0)} MB, peak ${peakRss.toFixed(0)} MB\n`);
    } finally {
      await server.stop();
    }
    if (exported.lines !== EVENTS) throw new Error(`exported ${exported.lines} events, expected ${EVENTS}`);
    const engine = await engineBaseline(clickhouseDir);
    const figures = {
      events: EVENTS,
      events_per_s: Math.round(EVENTS / exported.seconds),
      mb_per_s: Math.round(exported.bytes / 1e6 / exported.seconds),
      engine_events_per_s: Math.round(EVENTS / engine.seconds),
      engine_mb_per_s: Math.round(engine.bytes / 1e6 / engine.seconds),
      ratio: Number((engine.seconds / exported.seconds).toFixed(2)),
      rss_mb: Math.round(peakRss),
    };
    process.stdout.write(`export: ${exported.seconds.toFixed(2)} s, ${(exported.bytes / 1e6).toFixed(0)} MB; engine alone: ${engine.seconds.toFixed(2)} s\n`);
    process.stdout.write(`${JSON.stringify(figures)}\n`);
  } finally {
    data.remove();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${(error as Error).stack ?? String(error)}\n`);
  process.exit(1);
});

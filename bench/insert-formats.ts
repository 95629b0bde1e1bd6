import 'reflect-metadata';
import {
  ClickHouseDdl,
  ClickHouseMigrator,
  createClickHouseClient,
  InsertFormat,
  insertFormatted,
} from '@analytics/clickhouse';
import { EVENTS_TABLE } from '@analytics/event-store';
import { encodeEventRow, formatEpochSeconds, serializeProperties } from '@analytics/events';
import { CLICKHOUSE_MIGRATIONS } from '@analytics/runtime';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';

/**
 * `npm run build && node dist/bench/insert-formats.js`: CPU per row of the writer's insert into chDB,
 * by path and row format, on one core's worth of engine work (no Kafka, no HTTP). The rows are the
 * ingest bench's shape (20 properties, ~410 bytes as JSONEachRow). INSERT_ROWS (40000) rows per
 * insert, INSERT_BATCHES (6) inserts per variant. The last line is JSON (µs of CPU per row).
 */
const ROWS = Number(process.env.INSERT_ROWS ?? 40_000);
const BATCHES = Number(process.env.INSERT_BATCHES ?? 6);

function row(batch: number, i: number, nowMs: number) {
  const user = (batch * 7919 + i * 104729) % 100_000;
  const properties = {
    $browser: ['Chrome', 'Safari'][user % 2],
    $os: 'Mac OS X',
    $city: 'Berlin',
    $region: 'Berlin',
    mp_country_code: 'DE',
    $screen_width: 1920,
    $lib: 'node',
    v: 120 + (user % 12),
    path: `/p/${i % 5000}`,
    ref: 'google',
    plan: user % 3 ? 'free' : 'pro',
    price: (i % 10_000) / 100,
    items: i % 7,
    ok: user % 2 === 0,
    utm: 'mail',
    ab: i % 2 ? 'A' : 'B',
    n: i,
  };
  return {
    projectId: 1,
    event: ['Viewed Page', 'Searched', 'Purchased'][i % 3],
    timeMs: nowMs - (i % 1000),
    distinctId: `u-${String(user).padStart(7, '0')}`,
    insertId: `b${batch}-${i}`,
    properties,
    processedAtMs: nowMs,
  };
}

/** The same rows in each format the engine reads line by line. */
function encode(format: InsertFormat, r: ReturnType<typeof row>): string {
  if (format === 'JSONEachRow') return encodeEventRow(r).line;
  const time = formatEpochSeconds(r.timeMs);
  const processed = formatEpochSeconds(r.processedAtMs);
  const properties = serializeProperties(r.properties);
  if (format === 'JSONCompactEachRow')
    return `[${r.projectId},${JSON.stringify(r.event)},"${time}",${JSON.stringify(r.distinctId)},"${r.insertId}",${properties},"${processed}"]\n`;
  return `${r.projectId}\t${r.event}\t${time}\t${r.distinctId}\t${r.insertId}\t${properties.replace(/\\/g, '\\\\')}\t${processed}\n`;
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'insert-formats-'));
  const client = createClickHouseClient(`chdb:${join(dir, 'clickhouse')}`);
  await new ClickHouseMigrator(client, new ClickHouseDdl(undefined)).migrate(CLICKHOUSE_MIGRATIONS);
  await client.command({ query: `CREATE TABLE events_null AS ${EVENTS_TABLE} ENGINE = Null` });
  const settings = {
    input_format_json_read_objects_as_strings: 1,
    max_partitions_per_insert_block: '0',
    insert_deduplicate: 1,
  } as const;
  const variants: { name: string; format: InsertFormat; table: string; sqlText?: boolean }[] = [
    { name: 'sql text (client exec), JSONEachRow', format: 'JSONEachRow', table: EVENTS_TABLE, sqlText: true },
    { name: 'Buffer insert, JSONEachRow', format: 'JSONEachRow', table: EVENTS_TABLE },
    { name: 'Buffer insert, JSONCompactEachRow', format: 'JSONCompactEachRow', table: EVENTS_TABLE },
    { name: 'Buffer insert, TabSeparated', format: 'TabSeparated', table: EVENTS_TABLE },
    {
      name: 'Buffer insert, JSONEachRow into a Null table (parsing only)',
      format: 'JSONEachRow',
      table: 'events_null',
    },
  ];
  const result: Record<string, number> = {};
  let sequence = 0;
  for (const variant of variants) {
    const nowMs = Date.now();
    const batches = Array.from({ length: BATCHES }, () => {
      const batch = sequence++;
      return Buffer.from(Array.from({ length: ROWS }, (_, i) => encode(variant.format, row(batch, i, nowMs))).join(''));
    });
    const before = process.cpuUsage();
    for (const [b, rows] of batches.entries()) {
      const batchSettings = { ...settings, insert_deduplication_token: `${variant.name}:${b}` };
      if (variant.sqlText) {
        const done = await client.exec({
          query: `INSERT INTO ${variant.table} FORMAT ${variant.format}`,
          values: Readable.from([rows]),
          clickhouse_settings: batchSettings,
        });
        done.stream.destroy();
      } else
        await insertFormatted(client, { table: variant.table, format: variant.format, rows, settings: batchSettings });
    }
    const used = process.cpuUsage(before);
    result[variant.name] = Math.round(((used.user + used.system) / (ROWS * BATCHES)) * 100) / 100;
    process.stdout.write(
      `insert-formats: ${variant.name}: ${result[variant.name]} µs/row (${Math.round(batches[0].length / ROWS)} bytes/row)\n`,
    );
  }
  await client.close();
  rmSync(dir, { recursive: true, force: true });
  process.stdout.write(
    `${JSON.stringify({ date: new Date().toISOString(), rows_per_insert: ROWS, inserts: BATCHES, cpu_us_per_row: result })}\n`,
  );
}

main().catch((error: unknown) => {
  process.stderr.write(`insert-formats failed: ${(error as Error).stack}\n`);
  process.exit(1);
});

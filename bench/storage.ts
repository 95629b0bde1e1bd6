import 'reflect-metadata';
import { ClickHouseClient, ClickHouseDdl, ClickHouseMigrator, createClickHouseClient } from '@analytics/clickhouse';
import { EVENTS_TABLE, EventsRepository } from '@analytics/event-store';
import { CLICKHOUSE_MIGRATIONS } from '@analytics/runtime';
import { temporaryDirectory } from '@analytics/testing';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { columnBytes, diskUsage, engineLogTables, outdatedPartBytes, tableBytes } from './support/disk-usage';
import { MIX_SOURCES, SentEvent, shapedRows } from './support/event-mixes';

/**
 * `npm run bench:storage`: bytes on disk per stored event, for two mixes of events: (a) the load
 * generator's (bench:ingest's and bench:embedded's 20-property server-side events, one second of
 * times) and (b) web and mobile SDK events with their default properties, many people, four weeks.
 * Each mix is shaped by the gateway's rules (`validateEvent`) and written by the writer's insert
 * (`EventsRepository`) into a fresh in-process engine (chDB, as the standalone runs it), migrated as
 * the product migrates. Then `OPTIMIZE TABLE events FINAL` merges each partition into one part, as
 * background merges end up doing, and the figures are read: the events table's active parts
 * (system.parts), each column (system.parts_columns), and the engine's whole directory (`du`).
 *
 * BENCH_STORAGE_EVENTS (1,000,000 per mix), BENCH_STORAGE_BATCH (50,000 rows per insert, a writer's
 * batch under load), BENCH_STORAGE_MIXES (`loadgen,sdk`), BENCH_STORAGE_KEEP_DIR=1 (keeps each engine
 * directory and prints where). The last line is JSON.
 */
const EVENTS = Number(process.env.BENCH_STORAGE_EVENTS ?? 1_000_000);
const BATCH = Number(process.env.BENCH_STORAGE_BATCH ?? 50_000);
const MIXES = (process.env.BENCH_STORAGE_MIXES ?? 'loadgen,sdk').split(',');
const KEEP = process.env.BENCH_STORAGE_KEEP_DIR === '1';
const PROJECT_ID = 1;

const log = (line: string) => process.stdout.write(`${line}\n`);
const round = (value: number, digits = 1) => Math.round(value * 10 ** digits) / 10 ** digits;

/** Shapes every event as the gateway does and inserts them as the writer does, BATCH rows at a time. */
async function store(client: ClickHouseClient, source: Generator<SentEvent>) {
  const repository = new EventsRepository(client);
  const stats = { sentBytes: 0, rowBytes: 0, rows: 0, insertCpuS: 0 };
  let lines: string[] = [];
  const flush = async () => {
    const buffer = Buffer.from(lines.join(''));
    const before = process.cpuUsage();
    await repository.insert(buffer);
    const used = process.cpuUsage(before);
    stats.insertCpuS += (used.user + used.system) / 1e6;
    lines = [];
  };
  for (const { line, sentBytes } of shapedRows(source, PROJECT_ID)) {
    stats.sentBytes += sentBytes;
    stats.rowBytes += Buffer.byteLength(line);
    stats.rows++;
    lines.push(line);
    if (lines.length === BATCH) await flush();
  }
  if (lines.length) await flush();
  return stats;
}

async function measureMix(mix: string) {
  const directory = temporaryDirectory(`bench-storage-${mix}`);
  const path = join(directory.path, 'clickhouse');
  const client = createClickHouseClient(`chdb:${path}`);
  try {
    await new ClickHouseMigrator(client, new ClickHouseDdl(undefined)).migrate(CLICKHOUSE_MIGRATIONS);
    const stored = await store(client, MIX_SOURCES[mix](EVENTS));
    const asWritten = await tableBytes(client, EVENTS_TABLE);
    const before = process.cpuUsage();
    await client.command({ query: `OPTIMIZE TABLE ${EVENTS_TABLE} FINAL` });
    const optimize = process.cpuUsage(before);
    const table = await tableBytes(client, EVENTS_TABLE);
    const columns = await columnBytes(client, EVENTS_TABLE);
    const logs = await engineLogTables(client);
    const outdated = await outdatedPartBytes(client);
    const du = diskUsage(path);
    const n = table.rows;
    log(
      `\n${mix}: ${stored.rows} events sent (${round(stored.sentBytes / stored.rows)} bytes each as JSON, ${round(stored.rowBytes / stored.rows)} as JSONEachRow rows), ${n} stored`,
    );
    log(`  as written (${asWritten.parts} parts): ${round(asWritten.bytesOnDisk / n)} bytes/event`);
    log(
      `  merged (OPTIMIZE FINAL, ${table.parts} parts): ${round(table.bytesOnDisk / n)} bytes/event on disk ` +
        `(${round(table.uncompressed / n)} uncompressed, ratio ${round(table.uncompressed / table.compressed, 2)}; marks ${round(table.marks / n, 2)}, primary index ${round(table.primaryIndex / n, 2)})`,
    );
    log(`  ${'column'.padEnd(14)} ${'type'.padEnd(26)} ${'codec'.padEnd(26)} bytes/event  uncompressed  ratio  share`);
    for (const c of columns) {
      log(
        `  ${c.column.padEnd(14)} ${c.type.padEnd(26)} ${(c.codec || 'default (LZ4)').padEnd(26)} ${String(round(c.onDisk / n, 2)).padStart(11)}  ` +
          `${String(round(c.uncompressed / n, 1)).padStart(12)}  ${String(round(c.uncompressed / c.compressed, 1)).padStart(5)}  ${String(round((100 * c.onDisk) / table.bytesOnDisk)).padStart(4)} %`,
      );
    }
    log(
      `  engine log tables in the directory: ${logs.length ? logs.map((l) => `${l.table} ${l.bytes} bytes`).join(', ') : 'none'}`,
    );
    log(
      `  whole engine directory: ${round(du / n)} bytes/event (du ${du} bytes, of which ${outdated} in parts the merge replaced, ` +
        `removed after 8 min: ${round((du - outdated) / n)} bytes/event without them)`,
    );
    log(
      `  CPU: insert ${round((stored.insertCpuS / n) * 1e6, 2)} µs/event, OPTIMIZE FINAL ${round((optimize.user + optimize.system) / n, 2)} µs/event`,
    );
    if (KEEP) log(`  kept: ${path}`);
    return {
      [`${mix}_events`]: n,
      [`${mix}_bytes_per_event`]: round(table.bytesOnDisk / n, 2),
      [`${mix}_as_written_bytes_per_event`]: round(asWritten.bytesOnDisk / n, 2),
      [`${mix}_data_dir_bytes_per_event`]: round((du - outdated) / n, 2),
      [`${mix}_row_bytes_per_event`]: round(stored.rowBytes / n, 1),
      [`${mix}_insert_cpu_us_per_event`]: round((stored.insertCpuS / n) * 1e6, 2),
      [`${mix}_columns_bytes_per_event`]: Object.fromEntries(columns.map((c) => [c.column, round(c.onDisk / n, 2)])),
    };
  } finally {
    await client.close();
    if (!KEEP) directory.remove();
  }
}

async function main(): Promise<void> {
  const figures: Record<string, unknown> = { date: new Date().toISOString() };
  for (const mix of MIXES) {
    if (!MIX_SOURCES[mix]) throw new Error(`BENCH_STORAGE_MIXES: unknown mix ${mix} (loadgen, sdk)`);
    Object.assign(figures, await measureMix(mix));
  }
  figures.load_average = loadavg().map((l) => round(l, 2));
  log(JSON.stringify(figures));
}

main().catch((error: unknown) => {
  process.stderr.write(`bench:storage failed: ${(error as Error).stack}\n`);
  process.exit(1);
});

import { ClickHouseClient } from '@analytics/clickhouse';
import { lstatSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

/** Bytes a directory takes on disk, as `du` counts them (allocated blocks, each inode once). */
export function diskUsage(path: string, seen = new Set<number>()): number {
  const stat = lstatSync(path);
  if (seen.has(stat.ino)) return 0;
  seen.add(stat.ino);
  let bytes = stat.blocks * 512;
  if (stat.isDirectory()) for (const name of readdirSync(path)) bytes += diskUsage(join(path, name), seen);
  return bytes;
}

export interface TableBytes {
  parts: number;
  rows: number;
  bytesOnDisk: number;
  compressed: number;
  uncompressed: number;
  marks: number;
  primaryIndex: number;
}

export interface ColumnBytes {
  column: string;
  type: string;
  codec: string;
  onDisk: number;
  compressed: number;
  uncompressed: number;
}

async function rows<T>(client: ClickHouseClient, query: string, table?: string): Promise<T[]> {
  const result = await client.query({
    query,
    query_params: table === undefined ? {} : { table },
    format: 'JSONEachRow',
  });
  return result.json<T>();
}

/** The table's active parts, summed: what its rows take once outdated parts are gone. */
export async function tableBytes(client: ClickHouseClient, table: string): Promise<TableBytes> {
  const [summary] = await rows<TableBytes>(
    client,
    `SELECT count() AS parts, sum(rows) AS rows, sum(bytes_on_disk) AS bytesOnDisk,
       sum(data_compressed_bytes) AS compressed, sum(data_uncompressed_bytes) AS uncompressed,
       sum(marks_bytes) AS marks, sum(primary_key_size) AS primaryIndex
     FROM system.parts WHERE database = currentDatabase() AND table = {table:String} AND active`,
    table,
  );
  return summary;
}

/** Each column's bytes in the active parts, largest first, with its type and codec. */
export async function columnBytes(client: ClickHouseClient, table: string): Promise<ColumnBytes[]> {
  return rows<ColumnBytes>(
    client,
    `SELECT p.column AS column, any(c.type) AS type, any(c.compression_codec) AS codec,
       sum(p.column_bytes_on_disk) AS onDisk, sum(p.column_data_compressed_bytes) AS compressed,
       sum(p.column_data_uncompressed_bytes) AS uncompressed
     FROM system.parts_columns AS p
     INNER JOIN system.columns AS c ON c.database = p.database AND c.table = p.table AND c.name = p.column
     WHERE p.database = currentDatabase() AND p.table = {table:String} AND p.active
     GROUP BY p.column ORDER BY onDisk DESC`,
    table,
  );
}

/** Bytes of parts a merge replaced, still on disk until the engine removes them (old_parts_lifetime, 8 min). */
export async function outdatedPartBytes(client: ClickHouseClient): Promise<number> {
  const [row] = await rows<{ bytes: number }>(
    client,
    `SELECT sum(bytes_on_disk) AS bytes FROM system.parts WHERE NOT active`,
  );
  return row.bytes;
}

/** Tables the engine keeps for itself (query_log, part_log, trace_log, …) and what their parts take. */
export async function engineLogTables(client: ClickHouseClient): Promise<{ table: string; bytes: number }[]> {
  return rows(
    client,
    `SELECT t.name AS table, sum(p.bytes_on_disk) AS bytes
     FROM system.tables AS t LEFT JOIN system.parts AS p ON p.database = t.database AND p.table = t.name AND p.active
     WHERE t.database = 'system' AND t.engine LIKE '%MergeTree' AND t.engine NOT LIKE 'System%'
     GROUP BY t.name ORDER BY bytes DESC`,
  );
}

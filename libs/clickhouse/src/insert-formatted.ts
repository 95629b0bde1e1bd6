import { ClickHouseClient, ClickHouseSettings, parseError } from '@clickhouse/client';
import { Readable } from 'node:stream';
import { chdbHandleOf, InsertFormat } from './chdb-handles';

export interface FormattedInsert {
  table: string;
  format: InsertFormat;
  /** The rows, already in `format`; nothing here parses or copies them. */
  rows: Buffer | string;
  /** For this insert only. */
  settings?: ClickHouseSettings;
}

/** The statement of an insert over HTTP, its rows the body (chDB's raw insert takes table and format as they are). */
export function insertFormattedSql(table: string, format: InsertFormat): string {
  return `INSERT INTO ${table} FORMAT ${format}`;
}

/**
 * Inserts ready-made rows. On chDB the bytes go to the engine's parser as they are (its raw insert):
 * the client's `exec` with values decodes them into a string and builds one SQL text, which cost
 * 3× the CPU per row (docs/benchmarks/2026-11-24-issue-21-writer.md). Errors keep the client's shape
 * (`ClickHouseError` with code and type) on both backends.
 */
export async function insertFormatted(
  client: ClickHouseClient,
  { table, format, rows, settings = {} }: FormattedInsert,
): Promise<void> {
  if (!rows.length) return;
  const chdb = chdbHandleOf(client);
  if (chdb) {
    try {
      await chdb.rawInsert({
        table,
        format,
        values: rows,
        settings: settings as Record<string, string | number | boolean>,
      });
    } catch (error) {
      const mapped = parseError((error as Error).message ?? String(error));
      if (mapped !== error) mapped.cause = error;
      throw mapped;
    }
    return;
  }
  const result = await client.exec({
    query: insertFormattedSql(table, format),
    values: Readable.from([rows]),
    clickhouse_settings: settings,
  });
  result.stream.destroy();
}

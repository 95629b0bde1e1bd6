import { ClickHouseClient } from '@clickhouse/client';

/** Row-per-line text formats that rows can arrive in ready-made. */
export type InsertFormat = 'JSONEachRow' | 'JSONCompactEachRow' | 'TabSeparated';

type ChdbRawInsert = (params: {
  table: string;
  format: InsertFormat;
  values: Buffer | string;
  settings: Record<string, string | number | boolean>;
}) => Promise<unknown>;

/** What the client's interface hides of an in-process engine, for the paths that go around it (Buffer inserts, native streams). */
export interface ChdbHandle {
  /** The engine's data directory. */
  directory: string;
  /** chDB's Buffer insert, settings for that statement only. */
  rawInsert: ChdbRawInsert;
}

const handles = new WeakMap<ClickHouseClient, ChdbHandle>();

/** Called by `createClickHouseClient` for each client it opens in-process. */
export function rememberChdb(client: ClickHouseClient, handle: ChdbHandle): void {
  handles.set(client, handle);
}

/** The engine behind a client opened in-process; undefined for a server. */
export function chdbHandleOf(client: ClickHouseClient): ChdbHandle | undefined {
  return handles.get(client);
}

import { ClickHouseClient, ClickHouseSettings } from '@clickhouse/client';

/** A bound query: its SQL and the values of its named placeholders (what `renderChSql` gives). */
export interface RowsQuery {
  sql: string;
  params: Record<string, unknown>;
}

/**
 * Runs a bound query and reads its rows (JSONEachRow). ClickHouse's 64-bit integers arrive as strings
 * in JSON, so a row type says `string | number` for them and the caller converts.
 */
export async function queryRows<T>(
  clickhouse: ClickHouseClient,
  { sql, params }: RowsQuery,
  { signal, settings }: { signal?: AbortSignal; settings?: ClickHouseSettings } = {},
): Promise<T[]> {
  const result = await clickhouse.query({
    query: sql,
    query_params: params,
    format: 'JSONEachRow',
    abort_signal: signal,
    clickhouse_settings: settings,
  });
  return result.json<T>();
}

/** Runs a count query, `SELECT count() AS n …`: its one row's `n`. */
export async function countRows(clickhouse: ClickHouseClient, query: RowsQuery, signal?: AbortSignal): Promise<number> {
  const [row] = await queryRows<{ n: string | number }>(clickhouse, query, { signal });
  return Number(row?.n ?? 0);
}

import { ClickHouseClient } from '@clickhouse/client';

/** A bound query whose one row is `n`, the count: `SELECT count() AS n …`. */
export interface CountQuery {
  sql: string;
  params: Record<string, unknown>;
}

/** Runs a count query; ClickHouse's UInt64 arrives as a string in JSON, so `n` is read as either. */
export async function countRows(
  clickhouse: ClickHouseClient,
  { sql, params }: CountQuery,
  signal?: AbortSignal,
): Promise<number> {
  const result = await clickhouse.query({
    query: sql,
    query_params: params,
    format: 'JSONEachRow',
    abort_signal: signal,
  });
  const [row] = await result.json<{ n: string | number }>();
  return Number(row?.n ?? 0);
}

/** ClickHouse's TIMEOUT_EXCEEDED: a query ran past its `max_execution_time`. */
export const CLICKHOUSE_TIMEOUT_EXCEEDED = 159;

/** ClickHouse's MEMORY_LIMIT_EXCEEDED: a query went past its `max_memory_usage`. */
export const CLICKHOUSE_MEMORY_LIMIT_EXCEEDED = 241;

/** The ClickHouse error code of a failure (the client's `code`, chDB's `clickhouseCode`), looking through `cause`. */
export function clickHouseErrorCode(error: unknown): number | undefined {
  for (
    let e = error as { code?: unknown; clickhouseCode?: unknown; cause?: unknown } | undefined;
    e;
    e = e.cause as typeof e
  ) {
    for (const code of [e.code, e.clickhouseCode]) {
      if (typeof code === 'number' || (typeof code === 'string' && /^\d+$/.test(code))) return Number(code);
    }
  }
  return undefined;
}

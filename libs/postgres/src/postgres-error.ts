/**
 * SQLSTATE class 22 errors that mean the value itself cannot be stored or compared, not that the
 * store failed: NUL in text (22021), a character the encoding lacks (22P05), a number out of its
 * column's range (22003), text that is not the column's type (22P02).
 */
const VALUE_REFUSED = new Set(['22021', '22P05', '22003', '22P02']);

/** Whether Postgres refused a value a client sent (looking through drizzle's `cause`). */
export function isRefusedValue(error: unknown): boolean {
  for (let e = error as { code?: unknown; cause?: unknown } | undefined; e; e = e.cause as typeof e) {
    if (typeof e.code === 'string' && VALUE_REFUSED.has(e.code)) return true;
  }
  return false;
}

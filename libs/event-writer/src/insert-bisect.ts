/** How one insert went: done, or refused for a reason that may lie in the data. Passing failures are retried or thrown before this. */
export type InsertAttempt = { outcome: 'done' } | { outcome: 'dead-letter'; reason: string; code?: string };

export interface Refusal<T> {
  item: T;
  reason: string;
  code?: string;
}

/**
 * Inserts the items (Kafka messages, or in-process event rows) together; when ClickHouse refuses
 * the data, each half on its own, down to single items: an item refused alone is the one at fault
 * and comes back as a refusal, everything else is stored. One bad message among n costs about
 * 2·log2(n) inserts, not n; the halves are contiguous, so their dedup tokens stay exact.
 */
export async function insertBisecting<T>(
  items: T[],
  insert: (items: T[]) => Promise<InsertAttempt>,
): Promise<Refusal<T>[]> {
  if (!items.length) return [];
  const attempt = await insert(items);
  if (attempt.outcome === 'done') return [];
  if (items.length === 1) return [{ item: items[0], reason: attempt.reason, code: attempt.code }];
  const middle = Math.ceil(items.length / 2);
  const left = await insertBisecting(items.slice(0, middle), insert);
  return [...left, ...(await insertBisecting(items.slice(middle), insert))];
}

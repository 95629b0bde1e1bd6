import { BatchPart } from '@analytics/kafka';

/** Identical for a retried batch of the same offsets, so ClickHouse drops the repeat. */
export function dedupToken(parts: BatchPart[]): string {
  return [...parts]
    .sort((a, b) => a.topic.localeCompare(b.topic) || a.partition - b.partition)
    .map((p) => `${p.topic}:${p.partition}:${p.records[0]?.offset}-${p.lastOffset}`)
    .join(',');
}

import { compareUtf8 } from './query-event';

/**
 * The segments to show: ranked by their total (descending, ties by value in byte order), the first
 * `limit` kept. The reference implementations use this; the SQL ranks the same way in ClickHouse.
 */
export function topSegments(
  totals: ReadonlyMap<string, number>,
  limit: number,
): { kept: string[]; folded: Set<string> } {
  const ranked = [...totals.entries()].sort(([a, x], [b, y]) => y - x || compareUtf8(a, b)).map(([segment]) => segment);
  return { kept: ranked.slice(0, limit), folded: new Set(ranked.slice(limit)) };
}

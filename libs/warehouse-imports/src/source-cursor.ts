/**
 * Where reading a source stands, in its order (insert time, then a unique key). Values are the
 * source's own text renderings, so they are compared in the warehouse, never in Node.
 */
export interface SourcePosition {
  time: string;
  key: string;
  /** Rows read whose insert time is `time` (all with keys up to `key`): how the next run finds late rows at that time. */
  rowsAtTime: number;
}

/** Read rows after this: strictly after (time, key), or, without a key, every row at `time` or later. */
export type SourceCursor = SourcePosition | { time: string; key?: undefined; rowsAtTime: 0 };

/** What a page says of its rows' positions, in order. */
export interface PagePositions {
  last: { time: string; key: string };
  /** Rows of the page whose insert time is `last.time`. */
  rowsAtLastTime: number;
}

/** The position after a page read from `cursor`. */
export function advance(cursor: SourceCursor | undefined, page: PagePositions): SourcePosition {
  const carried = cursor && cursor.time === page.last.time ? cursor.rowsAtTime : 0;
  return { ...page.last, rowsAtTime: carried + page.rowsAtLastTime };
}

/** The committed form of a position (the import's `watermark` column). */
export function watermarkText(position: SourcePosition): string {
  return JSON.stringify({ time: position.time, key: position.key, rows_at_time: position.rowsAtTime });
}

/**
 * A committed watermark read back. Before keys were kept it was the insert time alone: that resumes
 * at that time, inclusive (the rows already read there are sent again, which dedup absorbs).
 */
export function parseWatermark(text: string | undefined): SourceCursor | undefined {
  if (text === undefined) return undefined;
  if (!text.startsWith('{')) return { time: text, rowsAtTime: 0 };
  const stored = JSON.parse(text) as { time: string; key: string; rows_at_time: number };
  return { time: stored.time, key: stored.key, rowsAtTime: stored.rows_at_time };
}

/**
 * Where a run starts. Rows can be committed later with the watermark's own insert time (a load that
 * stamps many rows alike, a transaction that commits late): when the source now holds a different
 * number of rows at that time up to the key, the run reads that time again from its first key.
 * Rows older than the watermark are not looked for (docs/warehouse-imports.md).
 */
export function resumeCursor(
  committed: SourceCursor | undefined,
  rowsNowUpToKey: number | undefined,
): SourceCursor | undefined {
  if (!committed || committed.key === undefined) return committed;
  return rowsNowUpToKey === committed.rowsAtTime ? committed : { time: committed.time, rowsAtTime: 0 };
}

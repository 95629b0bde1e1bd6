import { ExportPage } from './export-sql';
import { ExportBucket } from './export.repository';

/** What a line adds to its stored properties: the event, ids, times and JSON punctuation. */
export const LINE_OVERHEAD_BYTES = 200;

/** A bucket's estimated NDJSON size, from the stored sizes the planning query sums. */
export const bucketBytes = (bucket: ExportBucket): number =>
  Number(bucket.bytes) + Number(bucket.rows) * LINE_OVERHEAD_BYTES;

/**
 * Cuts the export into pages of about `pageBytes` of output, so a page's cost stays the same
 * whatever the events' size: consecutive small buckets share a page; a bucket larger than a page
 * is split into hash shares of its users.
 */
export function planPages(buckets: ExportBucket[], pageBytes: number): ExportPage[] {
  const pages: ExportPage[] = [];
  let current: ExportPage = { buckets: [], rows: 0, bytes: 0 };
  const close = () => {
    if (current.rows) pages.push(current);
    current = { buckets: [], rows: 0, bytes: 0 };
  };
  for (const bucket of buckets) {
    const rows = Number(bucket.rows);
    const bytes = bucketBytes(bucket);
    if (bytes > pageBytes) {
      close();
      const shares = Math.min(rows, Math.ceil(bytes / pageBytes));
      for (let index = 0; index < shares; index++) {
        pages.push({
          buckets: [[bucket.event, bucket.day]],
          share: { of: shares, index },
          rows: Math.ceil(rows / shares),
          bytes: Math.ceil(bytes / shares),
        });
      }
      continue;
    }
    if (current.bytes + bytes > pageBytes) close();
    current.buckets.push([bucket.event, bucket.day]);
    current.rows += rows;
    current.bytes += bytes;
  }
  close();
  return pages;
}

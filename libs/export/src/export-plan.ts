import { ExportBucket, ExportPage } from './export.repository';

/**
 * Cuts the export into pages of about `pageRows` rows, so memory stays flat whatever the range:
 * consecutive small buckets share a page; a bucket larger than a page is split into hash shares
 * of its users.
 */
export function planPages(buckets: ExportBucket[], pageRows: number): ExportPage[] {
  const pages: ExportPage[] = [];
  let current: ExportPage = { buckets: [], rows: 0 };
  const close = () => {
    if (current.rows) pages.push(current);
    current = { buckets: [], rows: 0 };
  };
  for (const bucket of buckets) {
    const rows = Number(bucket.rows);
    if (rows > pageRows) {
      close();
      const shares = Math.ceil(rows / pageRows);
      for (let index = 0; index < shares; index++) {
        pages.push({ buckets: [[bucket.event, bucket.day]], share: { of: shares, index }, rows: Math.ceil(rows / shares) });
      }
      continue;
    }
    if (current.rows + rows > pageRows) close();
    current.buckets.push([bucket.event, bucket.day]);
    current.rows += rows;
  }
  close();
  return pages;
}

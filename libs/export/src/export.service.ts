import { Injectable } from '@nestjs/common';
import { once } from 'node:events';
import { Writable } from 'node:stream';
import { planPages } from './export-plan';
import { ExportRequest } from './export-request';
import { ExportPage, ExportRepository } from './export.repository';

/** About 25 MB of NDJSON per page at ~500 bytes an event. */
const PAGE_ROWS = 50_000;

function countLines(chunk: Buffer): number {
  let lines = 0;
  for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) lines++;
  return lines;
}

/** Waits for room in `out`; a client that leaves aborts the wait (no drain ever comes then). */
async function drained(out: Writable, signal: AbortSignal): Promise<void> {
  try {
    await once(out, 'drain', { signal });
  } catch (error) {
    if (!signal.aborted) throw error;
  }
}

@Injectable()
export class ExportService {
  constructor(private readonly repository: ExportRepository) {}

  /** Plans the pages; a bad request fails here, before any byte is sent. */
  async plan(projectId: number, request: ExportRequest, signal: AbortSignal): Promise<ExportPage[]> {
    return planPages(await this.repository.buckets(projectId, request, signal), PAGE_ROWS);
  }

  /**
   * Writes the planned pages to `out`, honouring backpressure; stops at `limit` rows or as soon as
   * `signal` aborts (the client went away), cancelling the running query.
   */
  async write(projectId: number, request: ExportRequest, pages: ExportPage[], out: Writable, signal: AbortSignal): Promise<number> {
    let written = 0;
    for (const page of pages) {
      const remaining = request.limit === undefined ? undefined : request.limit - written;
      if (remaining !== undefined && remaining <= 0) break;
      if (signal.aborted) break;
      const stream = await this.repository.page(projectId, request, page, remaining, signal);
      for await (const chunk of stream) {
        written += countLines(chunk as Buffer);
        if (!out.write(chunk)) await drained(out, signal);
        if (signal.aborted) {
          stream.destroy();
          break;
        }
      }
    }
    return written;
  }
}

import { IdentityRepository } from '@analytics/identity';
import { ProjectScope } from '@analytics/tenancy';
import { Injectable } from '@nestjs/common';
import { once } from 'node:events';
import { Writable } from 'node:stream';
import { LookupTablesReader } from '@analytics/lookup-tables';
import { compileExportFilter, idsComparedWithDistinctId, readsDistinctId, withCanonicalIds } from './export-filter';
import { planPages } from './export-plan';
import { ExportRequest } from './export-request';
import { ExportRepository } from './export.repository';
import { ExportPage } from './export-sql';

/**
 * Estimated NDJSON bytes per page. Pages are streamed, so this bounds the work of one query (and
 * its cancellation), not memory; larger pages only save per-query overhead
 * (docs/benchmarks/2026-11-24-export-streamed-pages.md).
 */
const PAGE_BYTES = 64 * 1024 * 1024;

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
  constructor(
    private readonly repository: ExportRepository,
    private readonly identities: IdentityRepository,
    private readonly lookupTables: LookupTablesReader,
  ) {}

  /**
   * Plans the pages; a bad request fails here, before any byte is sent. A `where` that reads
   * `distinct_id` in a project with merged ids is planned on the resolved ids, as the pages filter
   * them, after the ids it names are resolved to their person's canonical id (docs/export.md).
   */
  async plan(scope: ProjectScope, request: ExportRequest, signal: AbortSignal): Promise<ExportPage[]> {
    // Compiled again with the project's lookup tables (the request's parse checked it without them).
    const { events: lookups } = await this.lookupTables.lookups(scope);
    const where = request.where && compileExportFilter(request.where.expression, lookups);
    if (!where || !readsDistinctId(where.expression)) {
      const [buckets, resolve] = await Promise.all([
        this.repository.buckets(scope, request, where?.compiled, false, signal),
        this.repository.hasMergedIds(scope, signal),
      ]);
      return planPages(buckets, PAGE_BYTES).map((page) => ({ ...page, resolve, where: where?.compiled }));
    }
    const resolve = await this.repository.hasMergedIds(scope, signal);
    const filter = resolve
      ? compileExportFilter(
          withCanonicalIds(
            where.expression,
            await this.identities.resolve(scope, idsComparedWithDistinctId(where.expression)),
          ),
          lookups,
        ).compiled
      : where.compiled;
    const buckets = await this.repository.buckets(scope, request, filter, resolve, signal);
    return planPages(buckets, PAGE_BYTES).map((page) => ({ ...page, resolve, where: filter }));
  }

  /**
   * Writes the planned pages to `out`, honouring backpressure (the engine is at most one chunk ahead
   * of what `out` took); stops at `limit` rows or as soon as `signal` aborts (the client
   * went away), cancelling the running query. Rows are counted only when a limit needs them.
   */
  async write(
    scope: ProjectScope,
    request: ExportRequest,
    pages: ExportPage[],
    out: Writable,
    signal: AbortSignal,
  ): Promise<void> {
    let written = 0;
    for (const page of pages) {
      const remaining = request.limit === undefined ? undefined : request.limit - written;
      if (remaining !== undefined && remaining <= 0) break;
      if (signal.aborted) break;
      const chunks = this.repository.page(scope, request, page, remaining, signal)[Symbol.asyncIterator]();
      // The engine computes the next chunk while the socket drains this one: one chunk ahead, no more.
      let next = chunks.next();
      try {
        for (let result = await next; !result.done; result = await next) {
          const chunk = result.value;
          if (remaining !== undefined) written += chunk.rows ?? countLines(chunk.bytes);
          next = chunks.next();
          if (!out.write(chunk.bytes)) await drained(out, signal);
          if (signal.aborted) break;
        }
      } catch (error) {
        if (!signal.aborted) throw error;
      } finally {
        next.catch(() => undefined);
        await chunks.return?.(undefined).catch(() => undefined);
      }
    }
  }
}

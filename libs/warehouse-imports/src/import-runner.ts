import { ProjectAuthenticator } from '@analytics/auth';
import { Clock } from '@analytics/clock';
import { EVENT_LIMITS } from '@analytics/events';
import { IngestService } from '@analytics/ingest';
import { ProfileIngestService } from '@analytics/profiles';
import { Project } from '@analytics/projects';
import { projectScope } from '@analytics/tenancy';
import { Inject, Injectable } from '@nestjs/common';
import { ImportedDataRepository } from './imported-data.repository';
import { rowToEvent, rowToProfileUpdate, SourceRow } from './row-mapping';
import { WAREHOUSE_IMPORT_SETTINGS, WarehouseImportSettings } from './warehouse-import-settings';
import { advance, parseWatermark, resumeCursor, SourceCursor, watermarkText } from './source-cursor';
import { SourceOrder, WarehouseReader } from './warehouse-reader';
import { WarehouseReaders } from './warehouse-readers';
import { ImportRunsRepository, RunCounts } from './import-runs.repository';
import { RunStatus, StoredImport } from './warehouse-imports.rows';

export type RunOutcome = RunStatus | 'busy' | 'skipped';

class RunCancelled extends Error {
  constructor() {
    super('the run was stopped (shutdown or lease timeout); the next run resumes from the last committed page');
  }
}

const NS_PER_MS = 1_000_000;

/** The column that orders the reading: the insert time, else the column that identifies the record. */
function orderColumn(item: StoredImport): string {
  const m = item.mapping;
  return (
    m.insert_time_column_name ??
    (item.kind === 'event-stream'
      ? m.time_column_name!
      : item.kind === 'people'
        ? m.user_column_name!
        : m.group_id_column_name!)
  );
}

/**
 * One run of one import, under its lease: pages from the last committed watermark, each handed to
 * the intake and acknowledged before the watermark moves. A repeat of any page is harmless: events
 * carry an `$insert_id` derived from the row, profile `$set`s are idempotent.
 */
@Injectable()
export class ImportRunner {
  constructor(
    private readonly repository: ImportRunsRepository,
    private readonly readers: WarehouseReaders,
    private readonly events: IngestService,
    private readonly profiles: ProfileIngestService,
    private readonly projects: ProjectAuthenticator,
    private readonly data: ImportedDataRepository,
    private readonly clock: Clock,
    @Inject(WAREHOUSE_IMPORT_SETTINGS) private readonly settings: WarehouseImportSettings,
  ) {}

  /**
   * `onlyIfDue`: a queued job whose run another one already did (a later tick filed it) does
   * nothing; it answers `skipped` whether the import was not due or another run held it.
   */
  async run(importId: number, signal?: AbortSignal, { onlyIfDue = false } = {}): Promise<RunOutcome> {
    const started = this.clock.date();
    // Before the claim, while a dead run's lease is still the expired one.
    await this.repository.failAbandonedRuns(started, importId);
    const lease = await this.repository.claim(
      importId,
      started,
      new Date(started.getTime() + this.settings.leaseSeconds * 1000),
      { dueOnly: onlyIfDue },
    );
    if (!lease) return onlyIfDue ? 'skipped' : 'busy';
    const { item, owner } = lease;
    const manual = item.manualRequested;
    if (item.paused) {
      await this.repository.release(importId, owner, { nextRunAt: item.nextRunAt, succeeded: false, manual: false });
      return 'skipped';
    }
    const runId = await this.repository.startRun(importId, manual ? 'manual' : 'schedule', started);
    const counts: RunCounts = { read: 0, imported: 0, failed: 0 };
    let status: RunStatus = 'SUCCEEDED';
    let error: string | undefined;
    try {
      await this.readAll(item, owner, counts, runId, signal);
    } catch (failure) {
      status = failure instanceof RunCancelled ? 'CANCELLED' : 'FAILED';
      error = (failure as Error).message;
    }
    await this.repository.finishRun(runId, counts, status, this.clock.date(), error);
    // A failed run waits for the next occurrence of its schedule (manual-only imports: the next manual sync).
    const once = item.syncMode === 'one_time';
    const nextRunAt =
      item.runEveryNs > 0 && !(once && status === 'SUCCEEDED')
        ? new Date(started.getTime() + item.runEveryNs / NS_PER_MS)
        : undefined;
    await this.repository.release(importId, owner, { nextRunAt, succeeded: status === 'SUCCEEDED', manual });
    return status;
  }

  private async readAll(
    item: StoredImport,
    owner: string,
    counts: RunCounts,
    runId: number,
    signal?: AbortSignal,
  ): Promise<void> {
    const project = await this.projects.byId(item.projectId);
    if (!project) throw new Error(`project ${item.projectId} no longer exists`);
    const source = await this.repository.sourceById(item.sourceId);
    if (!source) throw new Error(`warehouse source ${item.sourceId} no longer exists`);
    const reader = await this.readers.open(source);
    const incremental = item.syncMode === 'time_based';
    const order: SourceOrder = {
      table: item.tableParams,
      orderColumn: orderColumn(item),
      keyColumn: item.mapping.unique_key_column_name,
    };
    const seen = new Set<string>();
    try {
      let cursor = incremental ? await this.resume(reader, order, item.watermark) : undefined;
      for (;;) {
        if (signal?.aborted) throw new RunCancelled();
        const page = await reader.readPage({ ...order, after: cursor, pageSize: this.settings.pageSize });
        if (!page.positions) break;
        await this.deliver(item, project, source.type, page.rows, counts, seen);
        const position = advance(cursor, page.positions);
        // Acknowledged, not yet committed: a stop here re-reads the page next time, which dedup absorbs.
        if (signal?.aborted) throw new RunCancelled();
        if (incremental && !(await this.repository.commitWatermark(item.id, owner, watermarkText(position))))
          throw new Error('the run lost its lease to another worker');
        cursor = position;
        await this.repository.recordProgress(runId, counts);
      }
    } finally {
      await reader.close();
    }
    if (item.syncMode === 'full_sync' && item.kind !== 'event-stream') await this.removeVanished(item, project, seen);
  }

  /** The committed position, or its insert time again from the first key when rows arrived there since. */
  private async resume(
    reader: WarehouseReader,
    order: SourceOrder,
    watermark: string | undefined,
  ): Promise<SourceCursor | undefined> {
    const committed = parseWatermark(watermark);
    const rowsNow = committed?.key === undefined ? undefined : await reader.rowsUpTo(order, committed);
    return resumeCursor(committed, rowsNow);
  }

  private async deliver(
    item: StoredImport,
    project: Project,
    warehouseType: string,
    rows: SourceRow[],
    counts: RunCounts,
    seen: Set<string>,
  ): Promise<void> {
    const stamp = { importId: item.id, warehouseType };
    // The intake takes at most a request's worth of records at a time, like /import.
    for (let start = 0; start < rows.length; start += EVENT_LIMITS.maxEventsPerRequest) {
      const chunk = rows.slice(start, start + EVENT_LIMITS.maxEventsPerRequest);
      counts.read += chunk.length;
      if (item.kind === 'event-stream') {
        const records = chunk.map((row) => rowToEvent(row, item.mapping, stamp));
        const outcome = await this.events.importEvents(project, records, {
          strict: true,
          requireInsertId: true,
          nowMs: this.clock.now(),
        });
        counts.imported += outcome.imported;
        counts.failed += outcome.failed.length;
      } else {
        const records = chunk.map((row) => rowToProfileUpdate(row, item.mapping, stamp, project.token));
        for (const record of records) seen.add(String(record.$distinct_id ?? record.$group_id));
        const outcome = await this.profiles.receive(item.kind === 'people' ? 'user' : 'group', records, {
          strict: false,
          nowMs: this.clock.now(),
        });
        counts.imported += outcome.accepted;
        counts.failed += outcome.failed.length;
      }
    }
  }

  /** full_sync replaces what the import set before: its profiles no longer in the source are deleted. */
  private async removeVanished(item: StoredImport, project: Project, seen: Set<string>): Promise<void> {
    const groupKey = item.kind === 'groups' ? item.mapping.group_key! : '';
    // A run is a job for a stored import: the import's row names the project.
    const gone = (await this.data.profileIds(projectScope(item.projectId), item.id, groupKey)).filter(
      (id) => !seen.has(id),
    );
    await this.deleteProfiles(project, item.kind === 'groups' ? groupKey : undefined, gone);
  }

  /** `$delete`s through the profile path, so the store and its mirror agree. */
  async deleteProfiles(project: Project, groupKey: string | undefined, ids: string[]): Promise<void> {
    for (let start = 0; start < ids.length; start += EVENT_LIMITS.maxEventsPerRequest) {
      const chunk = ids.slice(start, start + EVENT_LIMITS.maxEventsPerRequest);
      const records = chunk.map((id) =>
        groupKey === undefined
          ? { $token: project.token, $distinct_id: id, $delete: '' }
          : { $token: project.token, $group_key: groupKey, $group_id: id, $delete: '' },
      );
      const outcome = await this.profiles.receive(groupKey === undefined ? 'user' : 'group', records, {
        strict: false,
        nowMs: this.clock.now(),
      });
      if (outcome.failed.length) throw new Error(`profile deletion refused: ${outcome.failed[0].message}`);
    }
  }
}

import { IdSource } from '@analytics/clock';
import { Postgres, selectRows } from '@analytics/postgres';
import { Injectable } from '@nestjs/common';
import { sql } from 'drizzle-orm';
import {
  ImportRun,
  IMPORT_COLUMNS,
  iso,
  Row,
  RunStatus,
  StoredImport,
  StoredSource,
  toImport,
  toSource,
} from './warehouse-imports.rows';

export interface RunCounts {
  read: number;
  imported: number;
  failed: number;
}

/** A held lease: the import, and the owner token that fences every write made under it. */
export interface ImportLease {
  item: StoredImport;
  owner: string;
}

const ABANDONED = 'the worker stopped during the run; the next run resumes from the last committed page';

/** Asked for by hand, or its schedule came (one_time: until it once succeeded); not paused. */
const isDue = (
  now: Date,
) => sql`not paused and (manual_requested or (run_every > 0 and (next_run_at is null or next_run_at <= ${iso(now)}::timestamptz)
  and not (sync_mode = 'one_time' and succeeded_once)))`;

/** The worker's side of the tables: due imports, the lease that keeps runs apart, run records, the watermark. */
@Injectable()
export class ImportRunsRepository {
  constructor(
    private readonly postgres: Postgres,
    private readonly ids: IdSource,
  ) {}

  private rows(query: ReturnType<typeof sql>) {
    return selectRows<Row>(this.postgres.db, query);
  }

  async sourceById(id: number): Promise<StoredSource | undefined> {
    const [row] = await this.rows(sql`select * from warehouse_sources where id = ${id}`);
    return row && toSource(row);
  }

  /** Imports a run is due for at `now`: asked for by hand, or their schedule came (one_time: until it once succeeded). */
  async dueImports(now: Date): Promise<number[]> {
    const rows = await this.rows(sql`select id from warehouse_imports where not deleting
      and (lease_until is null or lease_until < ${iso(now)}::timestamptz) and ${isDue(now)}
      order by id`);
    return rows.map((r) => Number(r.id));
  }

  /**
   * Takes the import's lease if no live run holds it: the one place that keeps runs from overlapping.
   * `dueOnly`: only when a run is due (a queued job whose run another one already did takes nothing).
   * Each claim gets a new owner token, so a holder whose lease expired cannot write under the next one.
   */
  async claim(
    id: number,
    now: Date,
    until: Date,
    { purpose = 'run', dueOnly = false }: { purpose?: 'run' | 'delete'; dueOnly?: boolean } = {},
  ): Promise<ImportLease | undefined> {
    const owner = this.ids.uuid();
    const [row] = await this
      .rows(sql`update warehouse_imports i set lease_owner = ${owner}, lease_until = ${iso(until)}::timestamptz
      where id = ${id} and deleting = ${purpose === 'delete'} and (lease_until is null or lease_until < ${iso(now)}::timestamptz)
        ${dueOnly ? sql`and ${isDue(now)}` : sql``}
      returning ${IMPORT_COLUMNS}`);
    return row && { item: toImport(row), owner };
  }

  /**
   * Runs a dead worker left RUNNING end as FAILED: those of imports no live lease holds (a live
   * run always holds its import's lease), of `importId` only when given.
   */
  async failAbandonedRuns(now: Date, importId?: number): Promise<void> {
    await this.postgres.db
      .execute(sql`update warehouse_import_runs r set status = 'FAILED', finished_at = ${iso(now)}::timestamptz, error = ${ABANDONED}
      from warehouse_imports i where r.import_id = i.id and r.status = 'RUNNING' and (i.lease_until is null or i.lease_until < ${iso(now)}::timestamptz)
        ${importId === undefined ? sql`` : sql`and i.id = ${importId}`}`);
  }

  async startRun(importId: number, trigger: ImportRun['trigger'], now: Date): Promise<number> {
    const [row] = await this.rows(sql`insert into warehouse_import_runs (import_id, status, trigger, started_at)
      values (${importId}, 'RUNNING', ${trigger}, ${iso(now)}::timestamptz) returning id`);
    return Number(row.id);
  }

  async recordProgress(runId: number, counts: RunCounts): Promise<void> {
    await this.postgres.db.execute(
      sql`update warehouse_import_runs set rows_read = ${counts.read}, rows_imported = ${counts.imported}, rows_failed = ${counts.failed} where id = ${runId}`,
    );
  }

  async finishRun(runId: number, counts: RunCounts, status: RunStatus, now: Date, error?: string): Promise<void> {
    await this.postgres.db
      .execute(sql`update warehouse_import_runs set rows_read = ${counts.read}, rows_imported = ${counts.imported}, rows_failed = ${counts.failed},
      status = ${status}, finished_at = ${iso(now)}::timestamptz, error = ${error ?? null} where id = ${runId}`);
  }

  /** Fenced by the lease: a worker that lost its lease cannot move the watermark. */
  async commitWatermark(id: number, owner: string, watermark: string): Promise<boolean> {
    const result = await this.rows(
      sql`update warehouse_imports set watermark = ${watermark} where id = ${id} and lease_owner = ${owner} returning id`,
    );
    return result.length > 0;
  }

  async release(
    id: number,
    owner: string,
    outcome: { nextRunAt: Date | undefined; succeeded: boolean; manual: boolean },
  ): Promise<void> {
    await this.postgres.db.execute(sql`update warehouse_imports set lease_owner = null, lease_until = null,
        next_run_at = ${outcome.nextRunAt ? iso(outcome.nextRunAt) : null}::timestamptz,
        succeeded_once = succeeded_once or ${outcome.succeeded},
        manual_requested = manual_requested and not ${outcome.manual}
      where id = ${id} and lease_owner = ${owner}`);
  }

  async deletingImports(): Promise<number[]> {
    return (await this.rows(sql`select id from warehouse_imports where deleting order by id`)).map((r) => Number(r.id));
  }

  async removeImport(id: number, owner: string): Promise<void> {
    await this.postgres.db.execute(sql`delete from warehouse_imports where id = ${id} and lease_owner = ${owner}`);
  }
}

import { Postgres, selectRows } from '@analytics/postgres';
import { Injectable } from '@nestjs/common';
import { sql } from 'drizzle-orm';

/** `pending` (due, a job enqueued), `running`, `retrying` (an attempt failed, pg-boss retries), `done`, `failed` (out of retries; enqueued again later). */
export type WindowStatus = 'pending' | 'running' | 'retrying' | 'done' | 'failed';

export interface WindowRecord {
  pipelineId: number;
  start: Date;
  status: WindowStatus;
  generation: number;
  attempts: number;
  rows: number | null;
  fingerprint: string | null;
  syncedAt: Date[];
  error: string | null;
  updatedAt: Date;
}

interface Row {
  pipeline_id: number;
  window_start: string | Date;
  status: WindowStatus;
  generation: number;
  attempts: number;
  rows: string | number | null;
  fingerprint: string | null;
  synced_at: string[];
  error: string | null;
  updated_at: string | Date;
}

/** Selected as JSON: both drivers hand it back parsed, with ISO times. */
const COLUMNS = sql.raw(
  'pipeline_id, window_start, status, generation, attempts, rows, fingerprint, to_json(synced_at) as synced_at, error, updated_at',
);

const toRecord = (row: Row): WindowRecord => ({
  pipelineId: row.pipeline_id,
  start: new Date(row.window_start),
  status: row.status,
  generation: row.generation,
  attempts: row.attempts,
  rows: row.rows === null ? null : Number(row.rows),
  fingerprint: row.fingerprint,
  syncedAt: row.synced_at.map((at) => new Date(at)),
  error: row.error,
  updatedAt: new Date(row.updated_at),
});

const iso = (date: Date) => date.toISOString();

/**
 * The state of each window. Every change is fenced by `generation`: a job of an older generation
 * (a window re-queued since) changes nothing.
 */
@Injectable()
export class PipelineWindowsRepository {
  constructor(private readonly postgres: Postgres) {}

  private async rows(query: ReturnType<typeof sql>): Promise<WindowRecord[]> {
    return (await selectRows<Row>(this.postgres.db, query)).map(toRecord);
  }

  /** Records the windows as due (existing ones are left as they are). */
  async ensure(pipelineId: number, starts: Date[]): Promise<void> {
    if (!starts.length) return;
    const values = sql.join(
      starts.map((start) => sql`(${pipelineId}, ${iso(start)}::timestamptz, 'pending')`),
      sql`, `,
    );
    await this.postgres.db.execute(
      sql`insert into pipeline_windows (pipeline_id, window_start, status) values ${values} on conflict do nothing`,
    );
  }

  /** Windows still to export (not `done`), oldest first. */
  async unfinished(pipelineId: number, limit = 500): Promise<WindowRecord[]> {
    return this.rows(
      sql`select ${COLUMNS} from pipeline_windows where pipeline_id = ${pipelineId} and status <> 'done' order by window_start limit ${limit}`,
    );
  }

  /** Per pipeline, the last time any of its windows was written (pipelines never written are absent). */
  async lastSynced(pipelineIds: number[]): Promise<Map<number, Date>> {
    if (!pipelineIds.length) return new Map();
    const ids = sql.join(
      pipelineIds.map((id) => sql`${id}`),
      sql`, `,
    );
    const rows = await selectRows<{ pipeline_id: number; last: string | Date }>(
      this.postgres.db,
      sql`select pipeline_id, max(at) as last from pipeline_windows, unnest(synced_at) as at where pipeline_id in (${ids}) group by pipeline_id`,
    );
    return new Map(rows.map((row) => [row.pipeline_id, new Date(row.last)]));
  }

  async latestStart(pipelineId: number): Promise<Date | undefined> {
    const [row] = await selectRows<{ latest: string | Date | null }>(
      this.postgres.db,
      sql`select max(window_start) as latest from pipeline_windows where pipeline_id = ${pipelineId}`,
    );
    return row?.latest ? new Date(row.latest) : undefined;
  }

  async all(pipelineId: number): Promise<WindowRecord[]> {
    return this.rows(
      sql`select ${COLUMNS} from pipeline_windows where pipeline_id = ${pipelineId} order by window_start`,
    );
  }

  /** Exported windows starting at or after `since`, for the sync check. */
  async doneSince(pipelineId: number, since: Date): Promise<WindowRecord[]> {
    return this.rows(
      sql`select ${COLUMNS} from pipeline_windows where pipeline_id = ${pipelineId} and status = 'done' and window_start >= ${iso(since)}::timestamptz order by window_start`,
    );
  }

  /** Takes the window for one attempt; false for a stale job (the window moved on to another generation, or is done). */
  async claim(pipelineId: number, start: Date, generation: number): Promise<boolean> {
    const rows = await selectRows<{ n: number }>(
      this.postgres.db,
      sql`update pipeline_windows set status = 'running', attempts = attempts + 1, updated_at = now()
          where pipeline_id = ${pipelineId} and window_start = ${iso(start)}::timestamptz and generation = ${generation} and status <> 'done' returning 1 as n`,
    );
    return rows.length > 0;
  }

  async complete(
    pipelineId: number,
    start: Date,
    generation: number,
    result: { rows: number; fingerprint: string; objects: string[] },
    at: Date,
  ): Promise<boolean> {
    const rows = await selectRows<{ n: number }>(
      this.postgres.db,
      sql`update pipeline_windows set status = 'done', rows = ${result.rows}, fingerprint = ${result.fingerprint}, objects = ${JSON.stringify(result.objects)}::jsonb,
            synced_at = array_append(synced_at, ${iso(at)}::timestamptz), error = null, updated_at = now()
          where pipeline_id = ${pipelineId} and window_start = ${iso(start)}::timestamptz and generation = ${generation} returning 1 as n`,
    );
    return rows.length > 0;
  }

  /**
   * An attempt failed. Before the last attempt the window waits for pg-boss's retry; after it, the
   * window is `failed` under a new generation, so the scheduler enqueues it again (never skipped).
   */
  async fail(pipelineId: number, start: Date, generation: number, error: string, final: boolean): Promise<void> {
    await this.postgres.db.execute(
      sql`update pipeline_windows set status = ${final ? 'failed' : 'retrying'}, generation = generation + ${final ? 1 : 0}, error = ${error.slice(0, 2000)}, updated_at = now()
          where pipeline_id = ${pipelineId} and window_start = ${iso(start)}::timestamptz and generation = ${generation}`,
    );
  }

  /** A job that found its pipeline paused: the window waits under a new generation, for the resume. */
  async park(pipelineId: number, start: Date, generation: number): Promise<void> {
    await this.postgres.db.execute(
      sql`update pipeline_windows set status = 'pending', generation = generation + 1, updated_at = now()
          where pipeline_id = ${pipelineId} and window_start = ${iso(start)}::timestamptz and generation = ${generation} and status <> 'done'`,
    );
  }

  /** Exported windows whose data changed: to be exported again (sync). Only `done` ones, so a running export is never doubled. */
  async resync(pipelineId: number, starts: Date[]): Promise<number> {
    if (!starts.length) return 0;
    const rows = await selectRows<{ n: number }>(
      this.postgres.db,
      sql`update pipeline_windows set status = 'pending', generation = generation + 1, updated_at = now()
          where pipeline_id = ${pipelineId} and status = 'done' and window_start in (${sql.join(
            starts.map((s) => sql`${iso(s)}::timestamptz`),
            sql`, `,
          )}) returning 1 as n`,
    );
    return rows.length;
  }
}

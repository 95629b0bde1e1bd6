import { EventsRepository } from '@analytics/event-store';
import { errorCode } from '@analytics/kafka';
import { Injectable } from '@nestjs/common';
import { InsertAttempt, insertBisecting } from './insert-bisect';
import { classifyInsertFailure } from './insert-failure';
import { WriterMetrics } from './writer-metrics';

/** A row ClickHouse refused even on its own, by its position in the written list. */
export interface RefusedRow {
  position: number;
  reason: string;
}

/** One request's rows waiting for the insert that carries them. */
interface Waiting {
  lines: string[];
  resolve(refused: RefusedRow[]): void;
  reject(error: unknown): void;
}

/**
 * Rows of requests that wait together go in one insert up to this many UTF-16 units (at most three
 * bytes each, so 16 MiB at worst); a larger request goes alone.
 */
const MAX_GROUP_UNITS = (16 * 1024 * 1024) / 3;

/**
 * Without a broker the gateway hands validated rows straight to this, and answers after the insert.
 * A passing failure is thrown (the gateway answers 503 and the client retries); rows ClickHouse
 * refuses are found by splitting the insert and come back, so the client is told which failed.
 *
 * One insert runs at a time, and the requests that arrive meanwhile share the next one: each insert
 * costs the engine about 15 ms whatever its size (docs/benchmarks/2026-11-25-issue-21-second-pass.md),
 * which at one insert per 2000-event request was about a fifth of the standalone's CPU per event. A
 * request still waits for its own rows to be stored; a shared insert the engine refuses is made again
 * request by request.
 */
@Injectable()
export class InProcessEventsWriter {
  private waiting: Waiting[] = [];
  private running = false;

  constructor(
    private readonly events: EventsRepository,
    private readonly metrics: WriterMetrics,
  ) {}

  write(lines: string[]): Promise<RefusedRow[]> {
    if (!lines.length) return Promise.resolve([]);
    return new Promise<RefusedRow[]>((resolve, reject) => {
      this.waiting.push({ lines, resolve, reject });
      if (!this.running) void this.drain();
    });
  }

  private async drain(): Promise<void> {
    this.running = true;
    while (this.waiting.length) await this.writeGroup(this.nextGroup());
    this.running = false;
  }

  /** The waiting requests, in arrival order, that fit one insert (at least one). */
  private nextGroup(): Waiting[] {
    let units = 0;
    let count = 0;
    for (const request of this.waiting) {
      const size = request.lines.reduce((sum, line) => sum + line.length, 0);
      if (count && units + size > MAX_GROUP_UNITS) break;
      units += size;
      count++;
    }
    return this.waiting.splice(0, count);
  }

  private async writeGroup(group: Waiting[]): Promise<void> {
    const stop = this.metrics.insertSeconds.startTimer();
    try {
      const shared =
        group.length > 1 && (await this.insert(group.flatMap((request) => request.lines).join(''))).outcome === 'done';
      for (const request of group) {
        const refused = shared ? [] : await this.writeAlone(request.lines);
        this.metrics.rowsInserted.inc(request.lines.length - refused.length);
        request.resolve(refused);
      }
    } catch (error) {
      // A passing failure (the engine is down or busy): every request of the group gets its 503.
      for (const request of group) request.reject(error);
    } finally {
      stop();
    }
  }

  /** One request's rows, split until each row the engine refuses stands alone. */
  private async writeAlone(lines: string[]): Promise<RefusedRow[]> {
    const rows = lines.map((line, position) => ({ line, position }));
    const refused = await insertBisecting(rows, (slice) => this.insert(slice.map((row) => row.line).join('')));
    return refused.map(({ item, reason }) => ({ position: item.position, reason }));
  }

  private async insert(lines: string): Promise<InsertAttempt> {
    try {
      await this.events.insert(lines);
      return { outcome: 'done' };
    } catch (error) {
      if (classifyInsertFailure(error) === 'retry') throw error;
      return { outcome: 'dead-letter', reason: (error as Error).message, code: errorCode(error) };
    }
  }
}

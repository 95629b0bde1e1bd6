import { errorCode } from '@analytics/kafka';
import { Injectable } from '@nestjs/common';
import { EventsRepository } from './events.repository';
import { InsertAttempt, insertBisecting } from './insert-bisect';
import { classifyInsertFailure } from './insert-failure';
import { WriterMetrics } from './writer-metrics';

/** A row ClickHouse refused even on its own, by its position in the written list. */
export interface RefusedRow {
  position: number;
  reason: string;
}

/**
 * Without a broker the gateway hands validated rows straight to this, and answers after the insert.
 * A passing failure is thrown (the gateway answers 503 and the client retries); rows ClickHouse
 * refuses are found by splitting the insert and come back, so the client is told which failed.
 */
@Injectable()
export class InProcessEventsWriter {
  constructor(
    private readonly events: EventsRepository,
    private readonly metrics: WriterMetrics,
  ) {}

  async write(lines: string[]): Promise<RefusedRow[]> {
    if (!lines.length) return [];
    const stop = this.metrics.insertSeconds.startTimer();
    const rows = lines.map((line, position) => ({ line, position }));
    const refused = await insertBisecting(rows, (slice) => this.insert(slice.map((row) => row.line).join('')));
    stop();
    this.metrics.rowsInserted.inc(lines.length - refused.length);
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

import { Injectable } from '@nestjs/common';
import { EventsRepository } from './events.repository';
import { WriterMetrics } from './writer-metrics';

/** Without a broker the gateway hands validated rows straight to this, and answers after the insert. */
@Injectable()
export class InProcessEventsWriter {
  constructor(
    private readonly events: EventsRepository,
    private readonly metrics: WriterMetrics,
  ) {}

  async write(lines: string[]): Promise<void> {
    if (!lines.length) return;
    const stop = this.metrics.insertSeconds.startTimer();
    await this.events.insert(lines.join(''));
    stop();
    this.metrics.rowsInserted.inc(lines.length);
  }
}

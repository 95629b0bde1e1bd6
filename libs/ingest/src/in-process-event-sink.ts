import { EventRow } from '@analytics/events';
import { InProcessEventsWriter } from '@analytics/event-writer';
import { Injectable } from '@nestjs/common';
import { EventSink, SinkUnavailableError } from './event-sink';

@Injectable()
export class InProcessEventSink extends EventSink {
  constructor(private readonly writer: InProcessEventsWriter) {
    super();
  }

  async publish(_projectId: number, rows: EventRow[]): Promise<void> {
    try {
      await this.writer.write(rows.map((row) => row.line));
    } catch (error) {
      throw new SinkUnavailableError(`event storage unavailable: ${(error as Error).message}`);
    }
  }
}

import { EventRow } from '@analytics/events';
import { InProcessEventsWriter, RefusedRow } from '@analytics/event-writer';
import { Injectable } from '@nestjs/common';
import { SinkUnavailableError } from '@analytics/sdk-transport';
import { EventSink, RefusedEvent } from './event-sink';

@Injectable()
export class InProcessEventSink extends EventSink {
  constructor(private readonly writer: InProcessEventsWriter) {
    super();
  }

  async publish(_projectId: number, rows: EventRow[]): Promise<RefusedEvent[]> {
    let refused: RefusedRow[];
    try {
      refused = await this.writer.write(rows.map((row) => row.line));
    } catch (error) {
      throw new SinkUnavailableError(`event storage unavailable: ${(error as Error).message}`);
    }
    return refused.map(({ position, reason }) => ({ position, message: `the event could not be stored: ${reason}` }));
  }
}

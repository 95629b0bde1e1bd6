import { distinctLinks, EventRow } from '@analytics/events';
import { InProcessEventsWriter, RefusedRow } from '@analytics/event-writer';
import { IdentityWriter } from '@analytics/identity';
import { Injectable } from '@nestjs/common';
import { SinkUnavailableError } from '@analytics/sdk-transport';
import { EventSink, RefusedEvent } from './event-sink';

@Injectable()
export class InProcessEventSink extends EventSink {
  constructor(
    private readonly writer: InProcessEventsWriter,
    private readonly identities: IdentityWriter,
  ) {
    super();
  }

  async publish(_projectId: number, rows: EventRow[]): Promise<RefusedEvent[]> {
    let refused: RefusedRow[];
    try {
      refused = await this.writer.write(rows.map((row) => row.line));
      // The links of the stored events; a link the rules refuse is logged and counted, its event stays stored.
      const refusedAt = new Set(refused.map((r) => r.position));
      await this.identities.apply(
        distinctLinks(rows.flatMap((row, position) => (row.link && !refusedAt.has(position) ? [row.link] : []))),
      );
    } catch (error) {
      throw new SinkUnavailableError(`event storage unavailable: ${(error as Error).message}`);
    }
    return refused.map(({ position, reason }) => ({
      position,
      insertId: rows[position].insertId,
      message: `the event could not be stored: ${reason}`,
    }));
  }
}

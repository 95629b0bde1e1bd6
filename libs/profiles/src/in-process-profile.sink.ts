import { ProfileUpdate } from '@analytics/profile-updates';
import { SinkUnavailableError } from '@analytics/sdk-transport';
import { Injectable } from '@nestjs/common';
import { CoalescingQueue } from './coalescing-queue';
import { ProfileUpdateSink, RefusedUpdate } from './profile-update.sink';
import { ProfileWriter } from './profile-writer.service';

/** Which request an update came from, and where in it. */
interface RequestPosition {
  request: number;
  position: number;
}

/**
 * Without a broker, the gateway applies updates itself before answering. Concurrent requests are
 * applied one batch at a time (gathered while the previous batch runs), so two requests never race
 * on the same profile and each request's updates apply in the order sent. Updates that cannot apply
 * to the stored profile are reported back to the client, which the Kafka path cannot do.
 */
@Injectable()
export class InProcessProfileSink extends ProfileUpdateSink {
  private readonly queue = new CoalescingQueue<ProfileUpdate, RefusedUpdate[]>((requests) =>
    this.applyTogether(requests),
  );

  constructor(private readonly writer: ProfileWriter) {
    super();
  }

  publish(updates: ProfileUpdate[]): Promise<RefusedUpdate[]> {
    return updates.length ? this.queue.push(updates) : Promise.resolve([]);
  }

  private async applyTogether(requests: ProfileUpdate[][]): Promise<RefusedUpdate[][]> {
    const pending = requests.flatMap((updates, request) =>
      updates.map((update, position) => ({ update, ref: { request, position } as RequestPosition })),
    );
    let rejected;
    try {
      rejected = await this.writer.apply(pending);
    } catch (error) {
      throw new SinkUnavailableError(`profile storage unavailable: ${(error as Error).message}`);
    }
    const refused: RefusedUpdate[][] = requests.map(() => []);
    for (const { ref, message } of rejected) refused[ref.request].push({ position: ref.position, message });
    return refused;
  }
}

import { AppConfig } from '@analytics/config';
import { distinctLinks, EventRow, partitionFor, utf8SizeBound } from '@analytics/events';
import {
  MAX_SEND_BYTES,
  PartitionedMessage,
  PartitionPublisher,
  PublisherFullError,
  ROWS_HEADER,
} from '@analytics/kafka';
import { Injectable, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { createGatewayPublisher, SinkUnavailableError } from '@analytics/sdk-transport';
import { encodeLink, linkPartition } from '@analytics/identity';
import { EventSink, RefusedEvent } from './event-sink';

/**
 * Publishes each request's events as one Kafka message per partition (not one per event): the
 * value is the events' ready-made table rows, so the writer inserts the bytes without parsing them.
 * A user's events always take the same partition. A request's answer depends only on its own
 * partitions (PartitionPublisher): another request's partition failing never fails it.
 */
@Injectable()
export class KafkaEventSink extends EventSink implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly publisher: PartitionPublisher;
  /** Identity links (docs/identity.md) go beside the events; applying one twice changes nothing. */
  private readonly identities: PartitionPublisher;

  constructor(config: AppConfig) {
    super();
    // Shared sends: an event written twice (a shared send split after a failure) collapses by its dedup key.
    this.publisher = createGatewayPublisher(config, 'events', { shareSends: true });
    this.identities = createGatewayPublisher(config, 'identities', { shareSends: true });
  }

  async onApplicationBootstrap(): Promise<void> {
    await Promise.all([this.publisher.connect(), this.identities.connect()]);
  }

  async onApplicationShutdown(): Promise<void> {
    await Promise.all([this.publisher.disconnect(), this.identities.disconnect()]);
  }

  /** Not async: the rows are garbage once their messages are built, not held while the broker acknowledges. */
  publish(projectId: number, rows: EventRow[]): Promise<RefusedEvent[]> {
    if (!rows.length) return Promise.resolve([]);
    return this.send(projectId, rows).then(
      () => [],
      (error: unknown) => {
        const reason =
          error instanceof PublisherFullError
            ? `too many events wait for it on this gateway (${error.message}); retry shortly`
            : (error as Error).message;
        throw new SinkUnavailableError(`event broker unavailable: ${reason}`);
      },
    );
  }

  private send(projectId: number, rows: EventRow[]): Promise<unknown> {
    try {
      const links = distinctLinks(rows.flatMap((row) => (row.link ? [row.link] : [])));
      const partitions = links.length ? this.identities.partitions() : 1;
      return Promise.all([
        this.publisher.publish(this.toMessages(projectId, rows)),
        links.length &&
          this.identities.publish(
            links.map((link) => ({
              partition: linkPartition(projectId, partitions),
              key: String(projectId),
              value: encodeLink(link),
            })),
          ),
      ]);
    } catch (error) {
      return Promise.reject(error);
    }
  }

  private toMessages(projectId: number, rows: EventRow[]): PartitionedMessage[] {
    const partitions = this.publisher.partitions();
    const byPartition = new Map<number, EventRow[]>();
    for (const row of rows) {
      const partition = partitionFor(projectId, row.distinctId, partitions);
      const group = byPartition.get(partition);
      if (group) group.push(row);
      else byPartition.set(partition, [row]);
    }
    const messages: PartitionedMessage[] = [];
    const message = (partition: number, lines: string[]) =>
      messages.push({ partition, value: lines.join(''), headers: { [ROWS_HEADER]: String(lines.length) } });
    for (const [partition, group] of byPartition) {
      // Most groups are far below a send's limit even at three bytes a character: no exact sizes needed.
      if (group.reduce((sum, row) => sum + utf8SizeBound(row.line), 0) <= MAX_SEND_BYTES) {
        message(
          partition,
          group.map((row) => row.line),
        );
        continue;
      }
      let chunk: string[] = [];
      let bytes = 0;
      for (const row of group) {
        const size = Buffer.byteLength(row.line);
        if (chunk.length && bytes + size > MAX_SEND_BYTES) {
          message(partition, chunk);
          chunk = [];
          bytes = 0;
        }
        chunk.push(row.line);
        bytes += size;
      }
      if (chunk.length) message(partition, chunk);
    }
    return messages;
  }
}

import { AppConfig, KafkaSettings } from '@analytics/config';
import { EventRow, partitionFor } from '@analytics/events';
import { ACKS_ALL, createIdempotentProducer, Kafka, ROWS_HEADER, topicMetadata, topicName } from '@analytics/kafka';
import { Injectable, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { Message, Producer } from 'kafkajs';
import { EventSink, RefusedEvent, SinkUnavailableError } from './event-sink';

/** Under the broker's default message.max.bytes (1 MB), with room for headers. */
const MAX_MESSAGE_BYTES = 900_000;
const METADATA_REFRESH_MS = 60_000;
/** The longest a request waits on the broker before it is told 503 (a late success is deduplicated downstream). */
const SEND_TIMEOUT_MS = 10_000;

function withinTimeout<T>(work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no acknowledgement within ${SEND_TIMEOUT_MS / 1000} s`)), SEND_TIMEOUT_MS);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

interface PendingSend {
  messages: Message[];
  resolve(): void;
  reject(error: unknown): void;
}

/**
 * Publishes each request's events as one Kafka message per partition (not one per event): the
 * value is the events' ready-made table rows, so the writer inserts the bytes without parsing them.
 * A user's events always take the same partition. Requests that arrive while a send is in flight
 * are coalesced into the next send, which keeps one request in flight (the idempotent producer's
 * ordering) without serialising the HTTP requests behind each other.
 */
@Injectable()
export class KafkaEventSink extends EventSink implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly settings: KafkaSettings;
  private readonly topic: string;
  private readonly producer: Producer;
  private partitions: number;
  private refreshedAt = 0;
  private queue: PendingSend[] = [];
  private sending = false;

  constructor(
    private readonly kafka: Kafka,
    config: AppConfig,
  ) {
    super();
    this.settings = config.kafka!;
    this.topic = topicName(this.settings, 'events');
    this.partitions = this.settings.eventsPartitions;
    this.producer = createIdempotentProducer(kafka, { bounded: true });
  }

  async onApplicationBootstrap(): Promise<void> {
    await this.producer.connect();
    await this.refreshPartitions();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.producer.disconnect();
  }

  async publish(projectId: number, rows: EventRow[]): Promise<RefusedEvent[]> {
    if (!rows.length) return [];
    if (Date.now() - this.refreshedAt > METADATA_REFRESH_MS) void this.refreshPartitions().catch(() => undefined);
    const messages = this.toMessages(projectId, rows);
    await new Promise<void>((resolve, reject) => {
      this.queue.push({ messages, resolve, reject });
      void this.drain();
    });
    return [];
  }

  private toMessages(projectId: number, rows: EventRow[]): Message[] {
    const byPartition = new Map<number, EventRow[]>();
    for (const row of rows) {
      const partition = partitionFor(projectId, row.distinctId, this.partitions);
      const group = byPartition.get(partition);
      if (group) group.push(row);
      else byPartition.set(partition, [row]);
    }
    const messages: Message[] = [];
    for (const [partition, group] of byPartition) {
      let chunk: string[] = [];
      let bytes = 0;
      const flush = () => {
        if (!chunk.length) return;
        messages.push({ partition, value: chunk.join(''), headers: { [ROWS_HEADER]: String(chunk.length) } });
        chunk = [];
        bytes = 0;
      };
      for (const row of group) {
        if (bytes + row.byteLength > MAX_MESSAGE_BYTES) flush();
        chunk.push(row.line);
        bytes += row.byteLength;
      }
      flush();
    }
    return messages;
  }

  private async drain(): Promise<void> {
    if (this.sending) return;
    this.sending = true;
    try {
      while (this.queue.length) {
        const batch = this.queue.splice(0);
        try {
          // Bounded: kafkajs retries reconnects for far longer than a client should wait for an answer.
          await withinTimeout(this.producer.send({ topic: this.topic, acks: ACKS_ALL, timeout: 10_000, messages: batch.flatMap((p) => p.messages) }));
          batch.forEach((p) => p.resolve());
        } catch (error) {
          const unavailable = new SinkUnavailableError(`event broker unavailable: ${(error as Error).message}`);
          batch.forEach((p) => p.reject(unavailable));
        }
      }
    } finally {
      this.sending = false;
    }
  }

  private async refreshPartitions(): Promise<void> {
    const admin = this.kafka.admin();
    await admin.connect();
    try {
      const { topics } = await topicMetadata(admin, [this.topic]);
      this.partitions = Math.max(topics[0]?.partitions.length ?? 0, 1);
      this.refreshedAt = Date.now();
    } finally {
      await admin.disconnect();
    }
  }
}

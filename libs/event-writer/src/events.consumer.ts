import { AppConfig } from '@analytics/config';
import { EventsRepository } from '@analytics/event-store';
import {
  Attempter,
  BatchContext,
  BatchOutcome,
  BatchPart,
  BatchSubscriptions,
  CONSUMER_GROUPS,
  createTopicIdentities,
  KAFKA_BATCHES,
  ROWS_HEADER,
  TopicIdentities,
  TOPICS,
} from '@analytics/kafka';
import { Controller, Logger, OnApplicationShutdown } from '@nestjs/common';
import { Ctx, EventPattern, Payload } from '@nestjs/microservices';
import { dedupToken, messagesOf } from './dedup-token';
import { insertBisecting } from './insert-bisect';
import { JoinBuffer } from './join-buffer';
import { classifyInsertFailure } from './insert-failure';
import { WriterMetrics } from './writer-metrics';

/** Kept for the deploy manifests and benchmarks that watch the group's lag. */
export const EVENTS_WRITER_GROUP = CONSUMER_GROUPS.eventsWriter;

/**
 * One fetch brings at most a batch's bytes (the gatherer holds one batch while another is written,
 * so memory stays about two batches), and the broker answers once 1 MiB or 100 ms is there rather
 * than for every produce: with the fetch no longer waiting for the insert, small fetches would cost
 * the broker more than the writer saves.
 */
function fetchSizes(maxBatchBytes: number) {
  return {
    maxBytes: maxBatchBytes,
    maxBytesPerPartition: Math.min(16 * 1024 * 1024, maxBatchBytes),
    minBytes: Math.min(1024 * 1024, Math.floor(maxBatchBytes / 4)),
    maxWaitTimeInMs: 100,
  };
}

/**
 * The writer: a consumer group on the events topic. Batches from all partitions are inserted
 * together; offsets are committed only after ClickHouse confirmed the insert, so a writer killed
 * at any point loses nothing (the batch is consumed again, and deduplicated). A message ClickHouse
 * refuses even alone goes to the dead-letter topic; it never holds up its partition.
 */
@Controller()
export class EventsConsumer implements OnApplicationShutdown {
  /** Inserts run one at a time (the gatherer flushes in order, the bisection and retries in turn). */
  private readonly joined = new JoinBuffer();
  private readonly topics: TopicIdentities;

  constructor(
    config: AppConfig,
    subscriptions: BatchSubscriptions,
    private readonly events: EventsRepository,
    private readonly metrics: WriterMetrics,
  ) {
    const settings = config.kafka!;
    this.topics = createTopicIdentities(settings);
    subscriptions.register({
      group: 'eventsWriter',
      topic: 'events',
      partitions: settings.eventsPartitions,
      fetch: fetchSizes(config.writer.maxBatchBytes),
      gather: {
        flushIntervalMs: config.writer.flushIntervalMs,
        maxRows: config.writer.maxBatchRows,
        maxBytes: config.writer.maxBatchBytes,
      },
      rowsOf: (message) => Number(message.headers?.[ROWS_HEADER]?.toString() ?? 1),
      classify: classifyInsertFailure,
      metrics: { retries: metrics.insertRetries, deadLetters: metrics.deadLetters },
      logger: new Logger(EventsConsumer.name),
    });
  }

  /** One gathered batch of the events topic; its offsets are committed once this resolves (and its dead letters are sent). */
  @EventPattern<string>(TOPICS.events, KAFKA_BATCHES)
  write(@Payload() parts: BatchPart[], @Ctx() context: BatchContext): Promise<BatchOutcome> {
    return this.insert(parts, context.attempt);
  }

  async onApplicationShutdown(): Promise<void> {
    await this.topics.close();
  }

  /** Passing failures are retried (same messages, same token); a refusal splits the batch until the refused message stands alone. */
  private async insert(parts: BatchPart[], attempt: Attempter): Promise<BatchOutcome> {
    const messages = messagesOf(parts);
    if (!messages.length) return { deadLetters: [] };
    const identities = await this.identitiesOf(parts, attempt);
    const stop = this.metrics.insertSeconds.startTimer();
    const refused = await insertBisecting(messages, (slice) =>
      attempt(() =>
        this.events.insert(this.joined.join(slice.map((m) => m.record.value)), dedupToken(slice, identities)),
      ),
    );
    stop();
    const rows = (list: { record: { rows: number } }[]) => list.reduce((sum, m) => sum + m.record.rows, 0);
    this.metrics.rowsInserted.inc(rows(messages) - rows(refused.map((r) => r.item)));
    return {
      deadLetters: refused.map(({ item: { topic, partition, record }, reason, code }) => ({
        ref: { topic, partition, offset: record.offset },
        reason,
        code,
      })),
    };
  }

  /** The identity of each topic of the batch (TopicIdentities asks the broker only when it may have changed); retried while the broker is away. */
  private async identitiesOf(parts: BatchPart[], attempt: Attempter): Promise<Map<string, string>> {
    const identities = new Map<string, string>();
    for (const topic of new Set(parts.map((part) => part.topic))) {
      const found = await attempt(
        () =>
          this.topics.identityOf(
            topic,
            parts.filter((part) => part.topic === topic),
          ),
        () => 'retry',
      );
      if (found.outcome === 'done') identities.set(topic, found.value);
    }
    return identities;
  }
}

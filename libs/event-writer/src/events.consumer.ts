import { AppConfig, KafkaSettings } from '@analytics/config';
import { Kafka, startBatchConsumer, topicName } from '@analytics/kafka';
import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { Consumer, EachBatchPayload, KafkaMessage, Producer } from 'kafkajs';
import { EventsRepository } from './events.repository';
import { BatchPart, BatchRecord, dedupToken, InsertBatcher } from './insert-batcher';
import { isPoisonData } from './insert-failure';
import { WriterMetrics } from './writer-metrics';

export const EVENTS_WRITER_GROUP = 'events-writer';
export const ROWS_HEADER = 'rows';
const HEARTBEAT_MS = 3_000;
const MAX_BACKOFF_MS = 5_000;

const nextOffset = (offset: string) => (BigInt(offset) + 1n).toString();
const toRecord = (message: KafkaMessage): BatchRecord => ({
  offset: message.offset,
  value: message.value!,
  rows: Number(message.headers?.[ROWS_HEADER]?.toString() ?? 1),
});
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The writer: a consumer group on the events topic. Batches from all partitions are inserted
 * together; offsets are committed only after ClickHouse confirmed the insert, so a writer killed
 * at any point loses nothing (the batch is consumed again, and deduplicated).
 */
@Injectable()
export class EventsConsumer implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(EventsConsumer.name);
  private readonly settings: KafkaSettings;
  private readonly consumer: Consumer;
  private readonly deadLetters: Producer;
  private readonly batcher: InsertBatcher;
  private stopping = false;

  constructor(
    kafka: Kafka,
    config: AppConfig,
    private readonly events: EventsRepository,
    private readonly metrics: WriterMetrics,
  ) {
    this.settings = config.kafka!;
    this.consumer = kafka.consumer({
      groupId: `${this.settings.topicPrefix}${EVENTS_WRITER_GROUP}`,
      // A crashed writer's partitions move to the others after this long.
      sessionTimeout: 10_000,
      heartbeatInterval: HEARTBEAT_MS,
      maxBytesPerPartition: 16 * 1024 * 1024,
      maxBytes: 64 * 1024 * 1024,
      maxWaitTimeInMs: 100,
    });
    this.deadLetters = kafka.producer({ idempotent: true, maxInFlightRequests: 1 });
    this.batcher = new InsertBatcher((parts) => this.insert(parts), {
      flushIntervalMs: config.writer.flushIntervalMs,
      maxRows: config.writer.maxBatchRows,
    });
  }

  async onApplicationBootstrap(): Promise<void> {
    await Promise.all([this.consumer.connect(), this.deadLetters.connect()]);
    await startBatchConsumer(this.consumer, {
      topic: topicName(this.settings, 'events'),
      partitions: this.settings.eventsPartitions,
      eachBatch: (payload) => this.handleBatch(payload),
      logger: this.logger,
    });
  }

  /** Drain: what is buffered is inserted and committed before the consumer leaves the group. */
  async onApplicationShutdown(): Promise<void> {
    this.stopping = true;
    await this.batcher.flushNow().catch(() => undefined);
    await this.consumer.disconnect();
    await this.deadLetters.disconnect();
  }

  private async handleBatch({ batch, heartbeat, resolveOffset, isStale }: EachBatchPayload): Promise<void> {
    const records = batch.messages.filter((m) => m.value?.length).map(toRecord);
    if (isStale()) return;
    if (!records.length) return resolveOffset(batch.lastOffset());
    const part: BatchPart = {
      topic: batch.topic,
      partition: batch.partition,
      records,
      lastOffset: batch.lastOffset(),
      rows: records.reduce((sum, r) => sum + r.rows, 0),
    };
    const beat = setInterval(() => heartbeat().catch(() => undefined), HEARTBEAT_MS);
    try {
      await this.batcher.add(part);
    } finally {
      clearInterval(beat);
    }
    resolveOffset(batch.lastOffset());
  }

  private async insert(parts: BatchPart[]): Promise<void> {
    const stop = this.metrics.insertSeconds.startTimer();
    const rows = parts.reduce((sum, p) => sum + p.rows, 0);
    const inserted = await this.withRetry(() => this.events.insert(Buffer.concat(parts.flatMap((p) => p.records.map((r) => r.value))), dedupToken(parts)));
    if (!inserted) await this.insertOneByOne(parts);
    else this.metrics.rowsInserted.inc(rows);
    stop();
    await this.consumer.commitOffsets(parts.map((p) => ({ topic: p.topic, partition: p.partition, offset: nextOffset(p.lastOffset) })));
  }

  /** Retries passing failures with backoff, forever unless stopping; false when the data is at fault. */
  private async withRetry(insert: () => Promise<void>): Promise<boolean> {
    for (let attempt = 0; ; attempt++) {
      try {
        await insert();
        return true;
      } catch (error) {
        if (isPoisonData(error)) return false;
        if (this.stopping) throw error;
        this.metrics.insertRetries.inc();
        this.logger.warn(`ClickHouse insert failed (${(error as Error).message}); retrying`);
        await sleep(Math.min(100 * 2 ** attempt, MAX_BACKOFF_MS));
      }
    }
  }

  /** Finds the messages ClickHouse refuses, so only they go to the dead-letter topic. */
  private async insertOneByOne(parts: BatchPart[]): Promise<void> {
    for (const part of parts) {
      for (const record of part.records) {
        let reason = '';
        const inserted = await this.withRetry(() =>
          this.events.insert(record.value, `${part.topic}:${part.partition}:${record.offset}`).catch((error: Error) => {
            reason = error.message;
            throw error;
          }),
        );
        if (inserted) this.metrics.rowsInserted.inc(record.rows);
        else await this.sendToDeadLetters(part, record, reason);
      }
    }
  }

  private async sendToDeadLetters(part: BatchPart, { offset, value }: BatchRecord, reason: string): Promise<void> {
    this.metrics.deadLetters.inc();
    this.logger.error(`Dead-lettering ${part.topic}[${part.partition}]@${offset}: ${reason}`);
    await this.deadLetters.send({
      topic: topicName(this.settings, 'eventsDeadLetter'),
      acks: -1,
      messages: [
        {
          value,
          headers: { reason: reason.slice(0, 2000), source_topic: part.topic, source_partition: String(part.partition), source_offset: offset },
        },
      ],
    });
  }
}

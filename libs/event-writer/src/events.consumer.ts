import { AppConfig } from '@analytics/config';
import { Attempter, BatchOutcome, BatchPart, BatchWorker, CONSUMER_GROUPS, DeadLetter, Kafka, ROWS_HEADER } from '@analytics/kafka';
import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { dedupToken } from './dedup-token';
import { EventsRepository } from './events.repository';
import { classifyInsertFailure } from './insert-failure';
import { WriterMetrics } from './writer-metrics';

/** Kept for the deploy manifests and benchmarks that watch the group's lag. */
export const EVENTS_WRITER_GROUP = CONSUMER_GROUPS.eventsWriter;

/**
 * The writer: a consumer group on the events topic. Batches from all partitions are inserted
 * together; offsets are committed only after ClickHouse confirmed the insert, so a writer killed
 * at any point loses nothing (the batch is consumed again, and deduplicated).
 */
@Injectable()
export class EventsConsumer implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly worker: BatchWorker;

  constructor(
    kafka: Kafka,
    config: AppConfig,
    private readonly events: EventsRepository,
    private readonly metrics: WriterMetrics,
  ) {
    const settings = config.kafka!;
    this.worker = new BatchWorker(kafka, settings, {
      group: 'eventsWriter',
      topic: 'events',
      partitions: settings.eventsPartitions,
      fetch: { maxBytesPerPartition: 16 * 1024 * 1024, maxBytes: 64 * 1024 * 1024, maxWaitTimeInMs: 100 },
      gather: { flushIntervalMs: config.writer.flushIntervalMs, maxRows: config.writer.maxBatchRows },
      rowsOf: (message) => Number(message.headers?.[ROWS_HEADER]?.toString() ?? 1),
      classify: classifyInsertFailure,
      handle: (parts, attempt) => this.insert(parts, attempt),
      metrics: { retries: metrics.insertRetries, deadLetters: metrics.deadLetters },
      logger: new Logger(EventsConsumer.name),
    });
  }

  onApplicationBootstrap(): Promise<void> {
    return this.worker.start();
  }

  onApplicationShutdown(): Promise<void> {
    return this.worker.stop();
  }

  private async insert(parts: BatchPart[], attempt: Attempter): Promise<BatchOutcome> {
    const stop = this.metrics.insertSeconds.startTimer();
    const filled = parts.filter((p) => p.records.length);
    const inserted = filled.length
      ? await attempt(() => this.events.insert(Buffer.concat(filled.flatMap((p) => p.records.map((r) => r.value))), dedupToken(filled)))
      : { outcome: 'done' as const };
    const deadLetters = inserted.outcome === 'done' ? [] : await this.insertOneByOne(filled, attempt);
    if (inserted.outcome === 'done') this.metrics.rowsInserted.inc(filled.reduce((sum, p) => sum + p.rows, 0));
    stop();
    return { deadLetters };
  }

  /** Finds the messages ClickHouse refuses, so only they go to the dead-letter topic. */
  private async insertOneByOne(parts: BatchPart[], attempt: Attempter): Promise<DeadLetter[]> {
    const deadLetters: DeadLetter[] = [];
    for (const { topic, partition, records } of parts) {
      for (const record of records) {
        const inserted = await attempt(() => this.events.insert(record.value, `${topic}:${partition}:${record.offset}`));
        if (inserted.outcome === 'done') this.metrics.rowsInserted.inc(record.rows);
        else deadLetters.push({ ref: { topic, partition, offset: record.offset }, reason: inserted.reason, code: inserted.code });
      }
    }
    return deadLetters;
  }
}

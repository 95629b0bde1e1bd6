import { AppConfig, KafkaSettings } from '@analytics/config';
import { parseJson } from '@analytics/events';
import { BatchPart, InsertBatcher } from '@analytics/event-writer';
import { Kafka, startBatchConsumer, topicName } from '@analytics/kafka';
import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { Consumer, EachBatchPayload, Producer } from 'kafkajs';
import { ProfileMetrics } from './profile-metrics';
import { decodeProfileUpdate } from './profile-update';
import { MirrorProfile } from './profiles-mirror.repository';
import { KafkaRef, PartitionUpdates, ProfileWriter, Rejection } from './profile-writer.service';
import { isPoisonWrite, retryPassingFailures, RetryOptions } from './write-failure';

export const PROFILES_WRITER_GROUP = 'profiles-writer';
const HEARTBEAT_MS = 3_000;
/** Profiles are read back soon after they are sent: short batches keep the mirror's lag low. */
const FLUSH_INTERVAL_MS = 200;
const MAX_BATCH_UPDATES = 10_000;

interface DeadLetter {
  ref: KafkaRef;
  reason: string;
}

const refKey = ({ topic, partition, offset }: KafkaRef) => `${topic}:${partition}:${offset}`;

/**
 * The profiles writer: a consumer group on the profiles topic. The batches of all partitions are
 * gathered (as the events writer does) and applied in one Postgres transaction that also moves
 * each partition's checkpoint; offsets are committed to Kafka only after Postgres and the mirror
 * have the batch. Updates that can never apply go to the dead-letter topic with the reason.
 */
@Injectable()
export class ProfilesConsumer implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(ProfilesConsumer.name);
  private readonly settings: KafkaSettings;
  private readonly consumer: Consumer;
  private readonly deadLetters: Producer;
  private readonly batcher: InsertBatcher;
  private stopping = false;
  /** The mirror insert and Kafka commit of the last stored batch. */
  private finishing: Promise<void> = Promise.resolve();

  constructor(
    kafka: Kafka,
    config: AppConfig,
    private readonly writer: ProfileWriter,
    private readonly metrics: ProfileMetrics,
  ) {
    this.settings = config.kafka!;
    this.consumer = kafka.consumer({
      groupId: `${this.settings.topicPrefix}${PROFILES_WRITER_GROUP}`,
      sessionTimeout: 10_000,
      heartbeatInterval: HEARTBEAT_MS,
      maxBytesPerPartition: 4 * 1024 * 1024,
      maxWaitTimeInMs: 50,
    });
    this.deadLetters = kafka.producer({ idempotent: true, maxInFlightRequests: 1 });
    this.batcher = new InsertBatcher((parts) => this.apply(parts), { flushIntervalMs: FLUSH_INTERVAL_MS, maxRows: MAX_BATCH_UPDATES });
  }

  async onApplicationBootstrap(): Promise<void> {
    await Promise.all([this.consumer.connect(), this.deadLetters.connect()]);
    await startBatchConsumer(this.consumer, {
      topic: topicName(this.settings, 'profiles'),
      partitions: this.settings.profilesPartitions,
      eachBatch: (payload) => this.handleBatch(payload),
      logger: this.logger,
    });
  }

  /** Drain: what is buffered is applied and committed before the consumer leaves the group. */
  async onApplicationShutdown(): Promise<void> {
    this.stopping = true;
    await this.batcher.flushNow().catch(() => undefined);
    await this.finishing;
    await this.consumer.disconnect();
    await this.deadLetters.disconnect();
  }

  private async handleBatch({ batch, heartbeat, resolveOffset, isStale }: EachBatchPayload): Promise<void> {
    if (isStale() || !batch.messages.length) return;
    const records = batch.messages.filter((m) => m.value?.length).map((m) => ({ offset: m.offset, value: m.value!, rows: 1 }));
    const part: BatchPart = { topic: batch.topic, partition: batch.partition, records, lastOffset: batch.lastOffset(), rows: records.length };
    const beat = setInterval(() => heartbeat().catch(() => undefined), HEARTBEAT_MS);
    try {
      await this.batcher.add(part);
    } finally {
      clearInterval(beat);
    }
    resolveOffset(batch.lastOffset());
  }

  /**
   * Postgres first; then, while the next batch is being stored, the mirror insert, the dead letters
   * and the Kafka commit of this one. At most one batch is past Postgres and not yet committed: if
   * the writer stops there, the batch is delivered again, skipped by the checkpoints and mirrored again.
   */
  private async apply(parts: BatchPart[]): Promise<void> {
    const poison: DeadLetter[] = [];
    const batches = parts.map((part) => this.decode(part, poison));
    const stored = await this.retry(() => this.writer.store(batches));
    const { rejected, mirrored } = stored ? stored.value : await this.storeOneByOne(batches);
    const letters = [...poison, ...rejected.map(({ ref, message }) => ({ ref, reason: message }))];
    await this.finishing;
    this.finishing = this.finish(parts, mirrored, letters).catch((error: Error) => {
      // Offsets stay uncommitted: the batch comes again and the mirror catches up then.
      this.logger.error(`profile batch not committed: ${error.message}`);
    });
  }

  private async finish(parts: BatchPart[], mirrored: MirrorProfile[], letters: DeadLetter[]): Promise<void> {
    // Our own rows: any ClickHouse failure is passing, retried until it succeeds (or we stop).
    await retryPassingFailures(() => this.writer.publish(mirrored), { ...this.retryOptions(), isPoison: () => false });
    await this.sendToDeadLetters(parts, letters);
    await this.consumer.commitOffsets(parts.map((p) => ({ topic: p.topic, partition: p.partition, offset: (BigInt(p.lastOffset) + 1n).toString() })));
  }

  /** The part's updates; a message that is not one goes to `poison`. */
  private decode(part: BatchPart, poison: DeadLetter[]): PartitionUpdates {
    const updates = part.records.flatMap(({ offset, value }) => {
      const ref = { topic: part.topic, partition: part.partition, offset };
      try {
        return [{ ref, update: decodeProfileUpdate(parseJson(value.toString('utf8'))) }];
      } catch (error) {
        poison.push({ ref, reason: `not a profile update: ${(error as Error).message}` });
        return [];
      }
    });
    return { topic: part.topic, partition: part.partition, updates, nextOffset: BigInt(part.lastOffset) + 1n };
  }

  /** Postgres refused the batch's data: each update alone, so only the ones at fault are dead-lettered. */
  private async storeOneByOne(batches: PartitionUpdates[]): Promise<{ rejected: Rejection<KafkaRef>[]; mirrored: MirrorProfile[] }> {
    const rejected: Rejection<KafkaRef>[] = [];
    const mirrored: MirrorProfile[] = [];
    for (const batch of batches) {
      for (const pending of batch.updates) {
        let reason = '';
        const single = { ...batch, updates: [pending], nextOffset: BigInt(pending.ref.offset) + 1n };
        const stored = await this.retry(() =>
          this.writer.store([single]).catch((error: Error) => {
            reason = error.message;
            throw error;
          }),
        );
        if (!stored) rejected.push({ ref: pending.ref, message: `Postgres refused the update: ${reason}` });
        else {
          rejected.push(...stored.value.rejected);
          mirrored.push(...stored.value.mirrored);
        }
      }
    }
    // Moves the checkpoints past the whole batch, the refused updates included.
    await this.retry(() => this.writer.store(batches.map((batch) => ({ ...batch, updates: [] }))));
    return { rejected, mirrored };
  }

  private retry<T>(run: () => Promise<T>) {
    return retryPassingFailures(run, this.retryOptions());
  }

  private retryOptions(): RetryOptions {
    return {
      isPoison: isPoisonWrite,
      stopping: () => this.stopping,
      onRetry: (error) => {
        this.metrics.retries.inc();
        this.logger.warn(`writing profile updates failed (${(error as Error).message}); retrying`);
      },
    };
  }

  private async sendToDeadLetters(parts: BatchPart[], letters: DeadLetter[]): Promise<void> {
    if (!letters.length) return;
    const values = new Map(parts.flatMap((p) => p.records.map((r) => [refKey({ topic: p.topic, partition: p.partition, offset: r.offset }), r.value])));
    this.metrics.deadLetters.inc(letters.length);
    letters.forEach(({ ref, reason }) => this.logger.error(`Dead-lettering ${ref.topic}[${ref.partition}]@${ref.offset}: ${reason}`));
    await this.deadLetters.send({
      topic: topicName(this.settings, 'profilesDeadLetter'),
      acks: -1,
      messages: letters.map(({ ref, reason }) => ({
        value: values.get(refKey(ref)) ?? null,
        headers: { reason: reason.slice(0, 2000), source_topic: ref.topic, source_partition: String(ref.partition), source_offset: ref.offset },
      })),
    });
  }
}

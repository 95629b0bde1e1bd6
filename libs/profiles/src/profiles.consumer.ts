import { AppConfig } from '@analytics/config';
import { parseJson } from '@analytics/events';
import {
  Attempter,
  BatchContext,
  BatchOutcome,
  BatchPart,
  BatchSubscriptions,
  CONSUMER_GROUPS,
  DeadLetter,
  IDLE_FETCH_WAIT_MS,
  KAFKA_BATCHES,
  TOPICS,
} from '@analytics/kafka';
import { MirrorProfile } from '@analytics/profile-store';
import { decodeProfileUpdate } from '@analytics/profile-updates';
import { Controller, Logger } from '@nestjs/common';
import { Ctx, EventPattern, Payload } from '@nestjs/microservices';
import { ProfileMetrics } from './profile-metrics';
import { KafkaRef, PartitionUpdates, Rejection } from './pending-updates';
import { ProfileWriter } from './profile-writer.service';
import { classifyWriteFailure, postgresRefusal } from './write-failure';

/** Kept for the benchmarks that watch the group's lag. */
export const PROFILES_WRITER_GROUP = CONSUMER_GROUPS.profilesWriter;
/** Profiles are read back soon after they are sent: short batches keep the mirror's lag low. */
const FLUSH_INTERVAL_MS = 200;
const MAX_BATCH_UPDATES = 10_000;

/**
 * The profiles writer: a consumer group on the profiles topic. The batches of all partitions are
 * gathered (as the events writer does) and applied in one Postgres transaction that also moves
 * each partition's checkpoint; offsets are committed to Kafka only after Postgres and the mirror
 * have the batch. Updates that can never apply go to the dead-letter topic with the reason.
 */
@Controller()
export class ProfilesConsumer {
  constructor(
    config: AppConfig,
    subscriptions: BatchSubscriptions,
    private readonly writer: ProfileWriter,
    metrics: ProfileMetrics,
  ) {
    subscriptions.register({
      group: 'profilesWriter',
      topic: 'profiles',
      partitions: config.kafka!.profilesPartitions,
      fetch: { maxBytesPerPartition: 4 * 1024 * 1024, maxWaitTimeInMs: IDLE_FETCH_WAIT_MS },
      gather: { flushIntervalMs: FLUSH_INTERVAL_MS, maxRows: MAX_BATCH_UPDATES },
      classify: classifyWriteFailure,
      metrics,
      logger: new Logger(ProfilesConsumer.name),
    });
  }

  /** One gathered batch of the profiles topic; its offsets are committed once this resolves and what it leaves to settle has settled. */
  @EventPattern<string>(TOPICS.profiles, KAFKA_BATCHES)
  write(@Payload() parts: BatchPart[], @Ctx() context: BatchContext): Promise<BatchOutcome> {
    return this.apply(parts, context.attempt);
  }

  /**
   * Postgres now; the mirror insert settles while the next batch is being stored. If the writer
   * stops in between, the batch is delivered again, skipped by the checkpoints and mirrored again.
   */
  private async apply(parts: BatchPart[], attempt: Attempter): Promise<BatchOutcome> {
    const poison: DeadLetter[] = [];
    const batches = parts.map((part) => this.decode(part, poison));
    const stored = await attempt(() => this.writer.store(batches));
    const { rejected, mirrored } =
      stored.outcome === 'done' ? stored.value : await this.storeOneByOne(batches, attempt);
    return {
      deadLetters: [...poison, ...rejected.map(({ ref, message }) => ({ ref, reason: message }))],
      settle: () => this.writer.publish(mirrored),
    };
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
  private async storeOneByOne(
    batches: PartitionUpdates[],
    attempt: Attempter,
  ): Promise<{ rejected: Rejection<KafkaRef>[]; mirrored: MirrorProfile[] }> {
    const rejected: Rejection<KafkaRef>[] = [];
    const mirrored: MirrorProfile[] = [];
    for (const batch of batches) {
      for (const pending of batch.updates) {
        const single = { ...batch, updates: [pending], nextOffset: BigInt(pending.ref.offset) + 1n };
        const stored = await attempt(() =>
          this.writer.store([single]).catch((error: unknown) => Promise.reject(postgresRefusal(error))),
        );
        if (stored.outcome === 'dead-letter')
          rejected.push({ ref: pending.ref, message: `Postgres refused the update: ${stored.reason}` });
        else {
          rejected.push(...stored.value.rejected);
          mirrored.push(...stored.value.mirrored);
        }
      }
    }
    // Moves the checkpoints past the whole batch, the refused updates included.
    await attempt(() => this.writer.store(batches.map((batch) => ({ ...batch, updates: [] }))));
    return { rejected, mirrored };
  }
}

import { AppConfig } from '@analytics/config';
import { classifyInsertFailure, messagesOf } from '@analytics/event-writer';
import { IdentityLink } from '@analytics/events';
import {
  Attempter,
  BatchContext,
  BatchOutcome,
  BatchPart,
  BatchSubscriptions,
  DeadLetter,
  IDLE_FETCH_WAIT_MS,
  KAFKA_BATCHES,
  TOPICS,
} from '@analytics/kafka';
import { Controller, Logger } from '@nestjs/common';
import { Ctx, EventPattern, Payload } from '@nestjs/microservices';
import { IdentityMetrics } from './identity-metrics';
import { decodeLink } from './identity-link-message';
import { IdentityWriter } from './identity-writer.service';

/**
 * The identity writer: a consumer group on the identities topic. A batch's links are applied in
 * offset order (a project's links share one partition), then the offsets are committed; a writer
 * killed mid-batch applies them again, which changes nothing. A link past the 500-id limit or a
 * message that is not a link goes to identities.dlq with the reason; a link the merge rules refuse
 * (`$identify` of an identified anonymous id, …) is the API's answer to that data, counted and
 * logged by the writer, not a message to replay.
 */
@Controller()
export class IdentitiesConsumer {
  constructor(
    config: AppConfig,
    subscriptions: BatchSubscriptions,
    private readonly writer: IdentityWriter,
    metrics: IdentityMetrics,
  ) {
    subscriptions.register({
      group: 'identitiesWriter',
      topic: 'identities',
      partitions: config.kafka!.profilesPartitions,
      fetch: { maxBytesPerPartition: 1024 * 1024, maxBytes: 16 * 1024 * 1024, maxWaitTimeInMs: IDLE_FETCH_WAIT_MS },
      gather: { flushIntervalMs: config.writer.flushIntervalMs, maxRows: config.writer.maxBatchRows },
      classify: classifyInsertFailure,
      metrics: { retries: metrics.retries, deadLetters: metrics.deadLetters },
      logger: new Logger(IdentitiesConsumer.name),
    });
  }

  /** One gathered batch of the identities topic; its offsets are committed once this resolves. */
  @EventPattern<string>(TOPICS.identities, KAFKA_BATCHES)
  write(@Payload() parts: BatchPart[], @Ctx() context: BatchContext): Promise<BatchOutcome> {
    return this.apply(parts, context.attempt);
  }

  private async apply(parts: BatchPart[], attempt: Attempter): Promise<BatchOutcome> {
    const deadLetters: DeadLetter[] = [];
    const links: { link: IdentityLink; ref: DeadLetter['ref'] }[] = [];
    for (const { topic, partition, record } of messagesOf(parts)) {
      const ref = { topic, partition, offset: record.offset };
      try {
        links.push({ link: decodeLink(record.value), ref });
      } catch (error) {
        deadLetters.push({ ref, reason: `not an identity link: ${(error as Error).message}` });
      }
    }
    const outcome = await attempt(() => this.writer.apply(links.map((l) => l.link)));
    if (outcome.outcome === 'dead-letter') {
      // ClickHouse refused the batch for a reason no retry fixes: its links are set aside, with that reason.
      return {
        deadLetters: [...deadLetters, ...links.map(({ ref }) => ({ ref, reason: outcome.reason, code: outcome.code }))],
      };
    }
    deadLetters.push(
      ...outcome.value
        .filter(({ rule }) => rule === 'cluster_limit')
        .map(({ position, reason }) => ({ ref: links[position].ref, reason })),
    );
    return { deadLetters };
  }
}

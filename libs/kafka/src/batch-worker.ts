import { KafkaSettings } from '@analytics/config';
import { Logger } from '@nestjs/common';
import { Consumer, ConsumerConfig, EachBatchPayload, Kafka, KafkaMessage, Producer } from 'kafkajs';
import { Attempt, Attempter, attemptWithRetries, ClassifyFailure } from './attempt';
import { BatchPart, DeadLetter, nextOffset } from './batch-part';
import { BatchGatherer, GatherOptions } from './batch-gatherer';
import { sendDeadLetters } from './dead-letters';
import { createIdempotentProducer } from './idempotent-producer';
import { ConsumedTopicKey, ConsumerGroupKey, DEAD_LETTER_TOPICS, groupId, topicName } from './topics';

const HEARTBEAT_MS = 3_000;

/** What handling a gathered batch came to: the messages that can never be handled go to the dead-letter topic. */
export interface BatchOutcome {
  deadLetters: DeadLetter[];
  /**
   * Work that may finish while the next batch is handled (retried until it succeeds); the dead
   * letters and the commit wait for it. Without it, the batch is committed before the next is handled.
   */
  settle?: () => Promise<void>;
}

export interface BatchWorkerOptions {
  group: ConsumerGroupKey;
  topic: ConsumedTopicKey;
  partitions: number;
  fetch: Pick<ConsumerConfig, 'maxBytesPerPartition' | 'maxBytes' | 'maxWaitTimeInMs'>;
  gather: GatherOptions;
  /** The rows a message holds, which the gatherer counts; 1 when absent. */
  rowsOf?(message: KafkaMessage): number;
  /** Which failures pass (retried with backoff) and which are the message's fault. */
  classify: ClassifyFailure;
  /** Writes the batches of all partitions; `attempt` runs one write under the retry policy. */
  handle(parts: BatchPart[], attempt: Attempter): Promise<BatchOutcome>;
  metrics: { retries: { inc(): void }; deadLetters: { inc(count: number): void } };
  logger: Logger;
}

/**
 * A writer's consumer: the batches of all partitions are gathered into one write, the heartbeat
 * keeps the partitions while it runs (ClickHouse or Postgres may be down for minutes), messages that
 * can never be written go to the dead-letter topic with the reason, and offsets are committed only
 * after the write (and the dead letters) succeeded. A writer killed at any point loses nothing: the
 * batch is consumed again, and the write is idempotent.
 */
export class BatchWorker {
  private readonly consumer: Consumer;
  private readonly deadLetters: Producer;
  private readonly gatherer: BatchGatherer;
  private readonly deadLetterTopic: string;
  private stopping = false;
  /** The settling, dead letters and commit of the last handled batch. */
  private finishing: Promise<void> = Promise.resolve();

  constructor(
    kafka: Kafka,
    private readonly settings: KafkaSettings,
    private readonly options: BatchWorkerOptions,
  ) {
    this.consumer = kafka.consumer({
      groupId: groupId(settings, options.group),
      // A crashed writer's partitions move to the others after this long.
      sessionTimeout: 10_000,
      heartbeatInterval: HEARTBEAT_MS,
      ...options.fetch,
    });
    this.deadLetters = createIdempotentProducer(kafka);
    this.deadLetterTopic = topicName(settings, DEAD_LETTER_TOPICS[options.topic]);
    this.gatherer = new BatchGatherer((parts) => this.flush(parts), options.gather);
  }

  /**
   * Subscribes and runs without auto-commit or auto-resolve, every partition in flight at once (each
   * partition's batch waits for a write shared by all). Not awaited: joining the group can take a
   * session timeout after a crash, and health and metrics must answer meanwhile.
   */
  async start(): Promise<void> {
    const topic = topicName(this.settings, this.options.topic);
    await Promise.all([this.consumer.connect(), this.deadLetters.connect()]);
    await this.consumer.subscribe({ topic, fromBeginning: true });
    void this.consumer
      .run({
        autoCommit: false,
        eachBatchAutoResolve: false,
        partitionsConsumedConcurrently: Math.max(this.options.partitions, 1),
        eachBatch: (payload) => this.eachBatch(payload),
      })
      .catch((error: Error) => this.options.logger.error(`consumer of ${topic} stopped: ${error.message}`));
  }

  /** Drain: what is gathered is written and committed before the consumer leaves the group. */
  async stop(): Promise<void> {
    this.stopping = true;
    await this.gatherer.flushNow().catch(() => undefined);
    await this.finishing;
    await this.consumer.disconnect();
    await this.deadLetters.disconnect();
  }

  /** Runs one write, retrying passing failures with backoff for as long as it takes (until stopping). */
  readonly attempt: Attempter = <T>(run: () => Promise<T>, classify = this.options.classify): Promise<Attempt<T>> =>
    attemptWithRetries(run, {
      classify,
      stopping: () => this.stopping,
      onRetry: (error) => {
        this.options.metrics.retries.inc();
        this.options.logger.warn(`write failed (${(error as Error).message}); retrying`);
      },
    });

  private async eachBatch({ batch, heartbeat, resolveOffset, isStale }: EachBatchPayload): Promise<void> {
    if (isStale() || !batch.messages.length) return;
    const records = batch.messages
      .filter((m) => m.value?.length)
      .map((m) => ({ offset: m.offset, value: m.value!, key: m.key, headers: m.headers, rows: this.options.rowsOf?.(m) ?? 1 }));
    const part: BatchPart = {
      topic: batch.topic,
      partition: batch.partition,
      records,
      lastOffset: batch.lastOffset(),
      rows: records.reduce((sum, r) => sum + r.rows, 0),
    };
    const beat = setInterval(() => heartbeat().catch(() => undefined), HEARTBEAT_MS);
    try {
      await this.gatherer.add(part);
    } finally {
      clearInterval(beat);
    }
    resolveOffset(batch.lastOffset());
  }

  /** At most one batch is past its write and not yet committed: if the writer stops there, it is consumed again. */
  private async flush(parts: BatchPart[]): Promise<void> {
    const outcome = await this.options.handle(parts, this.attempt);
    await this.finishing;
    const finishing = this.finish(parts, outcome);
    this.finishing = finishing.catch((error: Error) => {
      // Offsets stay uncommitted: the batch comes again, and the write is idempotent.
      this.options.logger.error(`batch not committed: ${error.message}`);
    });
    if (!outcome.settle) await finishing;
  }

  private async finish(parts: BatchPart[], { deadLetters, settle }: BatchOutcome): Promise<void> {
    const always = () => 'retry' as const;
    if (settle) await this.attempt(settle, always);
    if (deadLetters.length) {
      this.options.metrics.deadLetters.inc(deadLetters.length);
      deadLetters.forEach(({ ref, reason }) => this.options.logger.error(`Dead-lettering ${ref.topic}[${ref.partition}]@${ref.offset}: ${reason}`));
      await this.attempt(() => sendDeadLetters(this.deadLetters, this.deadLetterTopic, parts, deadLetters), always);
    }
    await this.consumer.commitOffsets(parts.map((p) => ({ topic: p.topic, partition: p.partition, offset: nextOffset(p.lastOffset) })));
  }
}

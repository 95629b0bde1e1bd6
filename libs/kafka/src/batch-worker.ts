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

/**
 * `maxWaitTimeInMs` for a consumer that fetches with kafkajs's `minBytes` of 1: the broker answers as
 * soon as any message is there, so this costs no latency and only paces the polling of an idle topic.
 * At 50–100 ms the writer's idle profile and identity consumers made 30 empty fetches a second, about
 * 0.03 cores of the writer's main thread and broker work besides
 * (docs/benchmarks/2026-11-25-writer-insert-settings.md). Below the session timeout's heartbeats, and a
 * rewind's seek waits at most this long.
 */
export const IDLE_FETCH_WAIT_MS = 500;

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
  fetch: Pick<ConsumerConfig, 'maxBytesPerPartition' | 'maxBytes' | 'maxWaitTimeInMs' | 'minBytes'>;
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
 *
 * The consumer fetches on while a batch is written (the gatherer holds the next one), so a write
 * that fails can no longer fail the fetch that brought it: its partitions are rewound instead (a
 * seek back to the batch's first offset), and every part of them fetched after it is dropped
 * uncommitted, so no later commit passes over a message that was not written.
 */
export class BatchWorker {
  private readonly consumer: Consumer;
  private readonly deadLetters: Producer;
  private readonly gatherer: BatchGatherer;
  private readonly deadLetterTopic: string;
  private stopping = false;
  /** The settling, dead letters and commit of the last handled batch. */
  private finishing: Promise<void> = Promise.resolve();
  /** Rewinds per partition; a part fetched before its partition's last rewind is stale. */
  private readonly rewinds = new Map<string, number>();
  private readonly fetched = new WeakMap<BatchPart, { rewinds: number; firstOffset: string }>();

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
    this.gatherer = new BatchGatherer(
      (parts) => this.flush(parts),
      options.gather,
      (error, parts) => this.rewind(parts, error),
    );
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
    await this.gatherer.flushNow();
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
      .map((m) => ({
        offset: m.offset,
        value: m.value!,
        key: m.key,
        headers: m.headers,
        rows: this.options.rowsOf?.(m) ?? 1,
      }));
    const part: BatchPart = {
      topic: batch.topic,
      partition: batch.partition,
      records,
      lastOffset: batch.lastOffset(),
      rows: records.reduce((sum, r) => sum + r.rows, 0),
    };
    this.fetched.set(part, {
      rewinds: this.rewinds.get(partitionKey(part)) ?? 0,
      firstOffset: batch.firstOffset() ?? batch.lastOffset(),
    });
    const beat = setInterval(() => void heartbeat().catch(() => undefined), HEARTBEAT_MS);
    try {
      await this.gatherer.add(part);
    } finally {
      clearInterval(beat);
    }
    // Fetched, not yet written: the commit after the write is what makes it count.
    if (!isStale()) resolveOffset(batch.lastOffset());
  }

  /** One batch at a time; its commit waits for the one before, so commits go in offset order. */
  private async flush(parts: BatchPart[]): Promise<void> {
    const live = this.current(parts);
    if (!live.length) return;
    const outcome = await this.options.handle(live, this.attempt);
    await this.finishing;
    const finishing = this.finish(live, outcome);
    this.finishing = finishing.catch((error: unknown) => this.rewind(live, error));
    if (!outcome.settle) await this.finishing;
  }

  private async finish(parts: BatchPart[], { deadLetters, settle }: BatchOutcome): Promise<void> {
    const always = () => 'retry' as const;
    if (settle) await this.attempt(settle, always);
    if (deadLetters.length) {
      this.options.metrics.deadLetters.inc(deadLetters.length);
      deadLetters.forEach(({ ref, reason }) =>
        this.options.logger.error(`Dead-lettering ${ref.topic}[${ref.partition}]@${ref.offset}: ${reason}`),
      );
      await this.attempt(() => sendDeadLetters(this.deadLetters, this.deadLetterTopic, parts, deadLetters), always);
    }
    // A partition rewound meanwhile (a batch before this one failed) is written again from there.
    const commits = new Map<string, { topic: string; partition: number; offset: string }>();
    for (const part of this.current(parts))
      commits.set(partitionKey(part), {
        topic: part.topic,
        partition: part.partition,
        offset: nextOffset(part.lastOffset),
      });
    await this.consumer.commitOffsets([...commits.values()]).catch((error: Error) => {
      // Written already: a later commit covers it, or the batch comes again and is deduplicated.
      this.options.logger.error(`batch written but not committed: ${error.message}`);
    });
  }

  /** The parts fetched since their partition's last rewind. */
  private current(parts: BatchPart[]): BatchPart[] {
    return parts.filter(
      (part) => (this.fetched.get(part)?.rewinds ?? 0) === (this.rewinds.get(partitionKey(part)) ?? 0),
    );
  }

  /** A batch not written: its partitions are consumed again from its first offset, and nothing after it is committed until then. */
  private rewind(parts: BatchPart[], error: unknown): void {
    this.options.logger.error(
      `batch not written (${(error as Error)?.message ?? error}); its partitions are consumed again`,
    );
    const firstOffsets = new Map<string, { topic: string; partition: number; offset: string }>();
    for (const part of this.current(parts)) {
      const key = partitionKey(part);
      const offset = this.fetched.get(part)?.firstOffset ?? part.lastOffset;
      const known = firstOffsets.get(key);
      if (!known || BigInt(offset) < BigInt(known.offset))
        firstOffsets.set(key, { topic: part.topic, partition: part.partition, offset });
    }
    for (const [key, target] of firstOffsets) {
      this.rewinds.set(key, (this.rewinds.get(key) ?? 0) + 1);
      try {
        this.consumer.seek(target);
      } catch {
        // Not running (stopping): nothing was committed past it, so the next owner starts there.
      }
    }
  }
}

const partitionKey = ({ topic, partition }: { topic: string; partition: number }) => `${topic}:${partition}`;

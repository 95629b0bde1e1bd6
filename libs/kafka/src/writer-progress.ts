import { AppConfig } from '@analytics/config';
import { Inject, Injectable, Optional } from '@nestjs/common';
import { Kafka } from 'kafkajs';
import { setTimeout as sleep } from 'node:timers/promises';
import { ConsumedTopicKey, ConsumerGroupKey, groupId, topicName } from './topics';

/** The end of each partition of the writers' topics at one moment: what had been produced by then. */
export type ProducedMarks = { topic: string; group: string; partitions: { partition: number; offset: number }[] }[];

/**
 * What the writers consume: the topic and the group whose committed offsets say what is stored.
 * Identity links too: a deletion expands its ids to their clusters only once the links
 * acknowledged before it are in the mapping.
 */
const WRITTEN: readonly [ConsumedTopicKey, ConsumerGroupKey][] = [
  ['events', 'eventsWriter'],
  ['profiles', 'profilesWriter'],
  ['identities', 'identitiesWriter'],
];

/** The admin calls used (a subset of kafkajs's), so tests can stand in for a broker. */
export interface KafkaOffsetsAdmin {
  connect(): Promise<void>;
  disconnect(): Promise<void>;
  fetchTopicOffsets(topic: string): Promise<{ partition: number; high: string; low: string }[]>;
  fetchOffsets(options: {
    groupId: string;
    topics: string[];
  }): Promise<{ topic: string; partitions: { partition: number; offset: string }[] }[]>;
}

/**
 * Lets a deletion wait until the writers have stored everything the gateways acknowledged before
 * it: the end offsets of the events, profiles and identities topics, then the writers' committed offsets
 * reaching them (a writer commits only after ClickHouse/Postgres confirmed). Without a broker the
 * gateway writes before it answers, so there is nothing to wait for.
 */
@Injectable()
export class WriterProgress {
  constructor(
    private readonly config: AppConfig,
    @Optional() @Inject(Kafka) private readonly kafka?: Pick<Kafka, 'admin'>,
  ) {}

  private admin(): KafkaOffsetsAdmin | undefined {
    return this.kafka?.admin() as KafkaOffsetsAdmin | undefined;
  }

  /** What has been produced so far; undefined without a broker. */
  async produced(): Promise<ProducedMarks | undefined> {
    const settings = this.config.kafka;
    const admin = this.admin();
    if (!settings || !admin) return undefined;
    await admin.connect();
    try {
      const marks: ProducedMarks = [];
      for (const [topic, group] of WRITTEN) {
        const offsets = await admin.fetchTopicOffsets(topicName(settings, topic));
        marks.push({
          topic: topicName(settings, topic),
          group: groupId(settings, group),
          partitions: offsets.map((o) => ({ partition: o.partition, offset: Number(o.high) })),
        });
      }
      return marks;
    } finally {
      await admin.disconnect();
    }
  }

  /** The partitions whose writers have not yet committed past the marks (empty: all stored). */
  async behind(marks: ProducedMarks): Promise<string[]> {
    const admin = this.admin();
    if (!admin) return [];
    await admin.connect();
    try {
      const lagging: string[] = [];
      for (const mark of marks) {
        const [committed] = await admin.fetchOffsets({ groupId: mark.group, topics: [mark.topic] });
        for (const { partition, offset } of mark.partitions) {
          const at = Number(committed?.partitions.find((p) => p.partition === partition)?.offset ?? -1);
          // Nothing ever produced to the partition: nothing to wait for (-1 means no commit yet).
          if (offset > 0 && at < offset) lagging.push(`${mark.topic}[${partition}] at ${Math.max(at, 0)} of ${offset}`);
        }
      }
      return lagging;
    } finally {
      await admin.disconnect();
    }
  }

  /** Waits (polling every `intervalMs`) until the writers pass the marks; throws after `timeoutMs`. */
  async waitFor(
    marks: ProducedMarks | undefined,
    { timeoutMs, intervalMs = 1000, signal }: { timeoutMs: number; intervalMs?: number; signal?: AbortSignal },
  ): Promise<void> {
    if (!marks) return;
    // Real time, not the Clock: a timeout of a wait on the brokers (a test's manual clock would never end it).
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      // A broker moving its group coordinator answers with retriable errors: ask again until the deadline.
      const lagging = await this.behind(marks).catch((error: Error) => [`offsets not readable (${error.message})`]);
      if (!lagging.length) return;
      if (Date.now() >= deadline)
        throw new Error(`the writers have not stored what was acknowledged before the request: ${lagging.join(', ')}`);
      await sleep(intervalMs, undefined, { signal });
    }
  }
}

import { Kafka, PartitionMetadata, Partitioners } from 'kafkajs';
import { topicMetadata } from './kafka-topic-admin';

const REFRESH_MS = 60_000;

/** A topic's partition count as a producer needs it to place messages, looked up again every minute (partitions may be added). */
export class TopicPartitions {
  private count = 1;
  private refreshedAt = 0;
  private readonly partitioner = Partitioners.DefaultPartitioner();

  constructor(
    private readonly kafka: Kafka,
    private readonly topic: string,
  ) {}

  async refresh(): Promise<void> {
    const admin = this.kafka.admin();
    await admin.connect();
    try {
      const { topics } = await topicMetadata(admin, [this.topic]);
      this.count = Math.max(topics[0]?.partitions.length ?? 0, 1);
      this.refreshedAt = Date.now();
    } finally {
      await admin.disconnect();
    }
  }

  /** The count known now; a lookup older than a minute is renewed in the background. */
  current(): number {
    if (Date.now() - this.refreshedAt > REFRESH_MS) {
      this.refreshedAt = Date.now();
      void this.refresh().catch(() => undefined);
    }
    return this.count;
  }

  /** The partition kafkajs's default partitioner (murmur2, as the Java clients) gives a key. */
  ofKey(key: string): number {
    const partitionMetadata = Array.from({ length: this.current() }, (_, partitionId) => ({ partitionId, leader: 0 }) as PartitionMetadata);
    return this.partitioner({ topic: this.topic, partitionMetadata, message: { key, value: null } });
  }
}

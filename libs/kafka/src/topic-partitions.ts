import { PartitionMetadata, Partitioners } from 'kafkajs';

/** Measured in real time, not the Clock: how fresh broker metadata is, not a time of the domain. */
const REFRESH_MS = 60_000;

/** A topic's partition count as a producer needs it to place messages, looked up again every minute (partitions may be added). */
export class TopicPartitions {
  private count = 1;
  private refreshedAt = 0;
  private readonly partitioner = Partitioners.DefaultPartitioner();

  constructor(private readonly lookUp: () => Promise<number>) {}

  async refresh(): Promise<void> {
    this.count = Math.max(await this.lookUp(), 1);
    this.refreshedAt = Date.now();
  }

  /** The count known now; a lookup older than a minute is renewed in the background. */
  current(): number {
    if (Date.now() - this.refreshedAt > REFRESH_MS) {
      this.refreshedAt = Date.now();
      void this.refresh().catch(() => undefined);
    }
    return this.count;
  }

  /** The partition kafkajs's default partitioner (murmur2, as the Java clients) gives a key: what every producer of the platform gives it. */
  ofKey(key: string): number {
    const partitionMetadata = Array.from(
      { length: this.current() },
      (_, partitionId) => ({ partitionId, leader: 0 }) as PartitionMetadata,
    );
    return this.partitioner({ topic: '', partitionMetadata, message: { key, value: null } });
  }
}

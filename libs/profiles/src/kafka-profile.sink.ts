import { AppConfig } from '@analytics/config';
import { createGatewayPublisher, SinkUnavailableError } from '@analytics/sdk-transport';
import { MAX_SEND_BYTES, PartitionedMessage, PartitionPublisher, PublisherFullError } from '@analytics/kafka';
import { identityKey, ProfileUpdate } from '@analytics/profile-updates';
import { Injectable, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { ProfileUpdateSink, RefusedUpdate } from './profile-update.sink';

/**
 * Publishes one message per update to the profiles topic, keyed by project and identity: all
 * updates of a profile share a partition (the key's, as the Java clients' default partitioner gives it), and
 * each partition's updates are sent in the order they arrived, so the writer applies them in the order
 * they were acknowledged. A request waits at most the gateway's send deadline, and only on its own
 * partitions (PartitionPublisher).
 */
@Injectable()
export class KafkaProfileSink extends ProfileUpdateSink implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly publisher: PartitionPublisher;

  constructor(config: AppConfig) {
    super();
    // Every partition sent alone: an update written twice would apply twice ($add, $append).
    this.publisher = createGatewayPublisher(config, 'profiles', { shareSends: false });
  }

  async onApplicationBootstrap(): Promise<void> {
    await this.publisher.connect();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.publisher.disconnect();
  }

  async publish(updates: ProfileUpdate[]): Promise<RefusedUpdate[]> {
    const refused: RefusedUpdate[] = [];
    const messages: PartitionedMessage[] = [];
    updates.forEach((update, position) => {
      const value = JSON.stringify(update);
      if (Buffer.byteLength(value) > MAX_SEND_BYTES)
        refused.push({ position, message: 'update is larger than 900 kB' });
      else {
        const key = identityKey(update);
        messages.push({ key, value, partition: this.publisher.partitionOfKey(key) });
      }
    });
    try {
      await this.publisher.publish(messages);
    } catch (error) {
      const reason =
        error instanceof PublisherFullError
          ? `too many updates wait for it on this gateway (${error.message}); retry shortly`
          : (error as Error).message;
      throw new SinkUnavailableError(`profile broker unavailable: ${reason}`);
    }
    return refused;
  }
}

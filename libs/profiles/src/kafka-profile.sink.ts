import { AppConfig } from '@analytics/config';
import { SinkUnavailableError } from '@analytics/ingest';
import { ACKS_ALL, createIdempotentProducer, Kafka, topicName } from '@analytics/kafka';
import { Injectable, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { Message, Producer } from 'kafkajs';
import { identityKey, ProfileUpdate } from './profile-update';
import { ProfileUpdateSink, RefusedUpdate } from './profile-update.sink';

/** Under the broker's default message.max.bytes (1 MB). */
const MAX_MESSAGE_BYTES = 900_000;

/**
 * Publishes one message per update to the profiles topic, keyed by project and identity: all
 * updates of a profile share a partition, so the writer applies them in the order they were
 * acknowledged. The producer is idempotent with acks=all.
 */
@Injectable()
export class KafkaProfileSink extends ProfileUpdateSink implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly topic: string;
  private readonly producer: Producer;

  constructor(kafka: Kafka, config: AppConfig) {
    super();
    this.topic = topicName(config.kafka!, 'profiles');
    this.producer = createIdempotentProducer(kafka, { bounded: true });
  }

  async onApplicationBootstrap(): Promise<void> {
    await this.producer.connect();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.producer.disconnect();
  }

  async publish(updates: ProfileUpdate[]): Promise<RefusedUpdate[]> {
    const refused: RefusedUpdate[] = [];
    const messages: Message[] = [];
    updates.forEach((update, position) => {
      const value = JSON.stringify(update);
      if (Buffer.byteLength(value) > MAX_MESSAGE_BYTES) refused.push({ position, message: 'update is larger than 900 kB' });
      else messages.push({ key: identityKey(update), value });
    });
    if (!messages.length) return refused;
    try {
      await this.producer.send({ topic: this.topic, acks: ACKS_ALL, timeout: 10_000, messages });
    } catch (error) {
      throw new SinkUnavailableError(`profile broker unavailable: ${(error as Error).message}`);
    }
    return refused;
  }
}

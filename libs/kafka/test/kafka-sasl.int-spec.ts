import { KafkaSettings, loadConfig } from '@analytics/config';
import {
  createKafka,
  createPublishingClient,
  createTopicIdentities,
  ensureTopics,
  PartitionPublisher,
  topicName,
  topicSpecs,
} from '@analytics/kafka';
import { freePort, temporaryDirectory, uniqueTopicPrefix } from '@analytics/testing';
import { join } from 'node:path';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const kafkaScript = require('../../../scripts/kafka.js') as {
  startKafka(options: {
    port: number;
    dataDir: string;
    scram: { port: number; mechanism: string; username: string; password: string };
  }): Promise<{ stop(): Promise<void> }>;
};

const USER = { username: 'analytics', password: 'correct-horse-battery-staple' };

/**
 * KAFKA_SASL_*: a broker of its own (the suite's asks no authentication) whose client listener asks
 * SCRAM-SHA-512, the user formatted into its metadata log. Both clients the app creates (kafkajs for
 * the writers and the admin, @platformatic/kafka for the gateway and topic identities) sign in.
 */
describe('Kafka with SCRAM authentication (real broker)', () => {
  const directory = temporaryDirectory('test-kafka-scram');
  let broker: { stop(): Promise<void> };
  let saslAddress: string;
  const prefix = uniqueTopicPrefix();

  const settings = (password = USER.password): KafkaSettings =>
    loadConfig({
      KAFKA_BROKERS: saslAddress,
      KAFKA_TOPIC_PREFIX: prefix,
      KAFKA_EVENTS_PARTITIONS: '2',
      KAFKA_PROFILES_PARTITIONS: '2',
      KAFKA_SASL_MECHANISM: 'scram-sha-512',
      KAFKA_SASL_USERNAME: USER.username,
      KAFKA_SASL_PASSWORD: password,
    }).kafka!;

  beforeAll(async () => {
    const saslPort = await freePort();
    saslAddress = `127.0.0.1:${saslPort}`;
    broker = await kafkaScript.startKafka({
      port: await freePort(),
      dataDir: join(directory.path, 'data'),
      scram: { port: saslPort, mechanism: 'SCRAM-SHA-512', ...USER },
    });
  }, 180_000); // a JVM broker of its own: 20 to 40 s on a shared machine
  afterAll(async () => {
    await broker?.stop();
    directory.remove();
  });

  it('creates topics and publishes with the right password, through both clients', async () => {
    const kafka = createKafka(settings());
    await ensureTopics(kafka, topicSpecs(settings()));
    const topic = topicName(settings(), 'events');
    const publisher = new PartitionPublisher(createPublishingClient(settings()), {
      topic,
      sendTimeoutMs: 10_000,
      maxPendingBytes: 1_000_000,
      producers: 1,
      shareSends: false,
    });
    await publisher.connect();
    await publisher.publish([{ partition: 1, key: 'user-1', value: 'row\n', headers: {} }]);
    await publisher.disconnect();

    const admin = kafka.admin();
    await admin.connect();
    const offsets = await admin.fetchTopicOffsets(topic);
    await admin.disconnect();
    expect(offsets.find((o) => o.partition === 1)?.high).toBe('1');

    const identities = createTopicIdentities(settings());
    expect(await identities.identityOf(topic, [])).toMatch(/^\S+\/\S+$/);
    await identities.close();
  });

  it('fails clearly, and soon, with a wrong password', async () => {
    const admin = createKafka(settings('wrong-password')).admin();
    await expect(admin.connect()).rejects.toThrow(/SASL SCRAM SHA512 authentication failed/);
    await admin.disconnect();

    const producer = createPublishingClient(settings('wrong-password')).producer(topicName(settings(), 'events'), {
      requestTimeoutMs: 2_000,
      retryForMs: 1_000,
      connectForMs: 1_000,
    });
    await expect(producer.connect()).rejects.toThrow(/authentication/i);
    await producer.disconnect();
  });
});

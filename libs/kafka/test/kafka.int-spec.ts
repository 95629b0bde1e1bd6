import { loadConfig } from '@analytics/config';
import {
  ACKS_ALL,
  createIdempotentProducer,
  createKafka,
  createPublishingClient,
  ensureTopics,
  PartitionPublisher,
  ROWS_HEADER,
  topicName,
  topicSpecs,
} from '@analytics/kafka';
import { testKafkaBrokers, uniqueTopicPrefix } from '@analytics/testing';
import { CompressionTypes } from 'kafkajs';

describe('Kafka (real broker)', () => {
  const settings = (partitions: number) =>
    loadConfig({
      KAFKA_BROKERS: testKafkaBrokers(),
      KAFKA_TOPIC_PREFIX: prefix,
      KAFKA_EVENTS_PARTITIONS: String(partitions),
    }).kafka!;
  const prefix = uniqueTopicPrefix();

  it('creates the configured topics idempotently and grows partitions', async () => {
    const kafka = createKafka(settings(2));
    await ensureTopics(kafka, topicSpecs(settings(2)));
    await ensureTopics(kafka, topicSpecs(settings(2)));
    await ensureTopics(kafka, topicSpecs(settings(3)));
    const admin = kafka.admin();
    await admin.connect();
    const { topics } = await admin.fetchTopicMetadata({ topics: [topicName(settings(3), 'events')] });
    await admin.disconnect();
    expect(topics[0].partitions).toHaveLength(3);
  });

  it('consumes back every message produced with acks=all by the idempotent producer', async () => {
    const kafka = createKafka(settings(3));
    const topic = topicName(settings(3), 'events');
    const producer = createIdempotentProducer(kafka);
    await producer.connect();
    const sent = Array.from({ length: 500 }, (_, i) => `message-${i}`);
    await producer.send({
      topic,
      acks: ACKS_ALL,
      compression: CompressionTypes.None,
      messages: sent.map((value, i) => ({ key: String(i % 7), value })),
    });
    await producer.disconnect();

    const consumer = kafka.consumer({ groupId: `${prefix}group` });
    const received: string[] = [];
    await consumer.connect();
    await consumer.subscribe({ topic, fromBeginning: true });
    const done = new Promise<void>((resolve) => {
      void consumer.run({
        eachBatch: async ({ batch }) => {
          received.push(...batch.messages.map((m) => m.value!.toString()));
          if (received.length >= sent.length) resolve();
        },
      });
    });
    await done;
    await consumer.disconnect();
    expect(received.sort()).toEqual([...sent].sort());
  });

  it("publishes through the gateway's client: each message on its partition, with its key and headers, once", async () => {
    const kafka = createKafka(settings(3));
    await ensureTopics(kafka, topicSpecs(settings(3)));
    const topic = topicName(settings(3), 'profiles');
    const partitions = settings(3).profilesPartitions;
    const publisher = new PartitionPublisher(createPublishingClient(settings(3)), {
      topic,
      sendTimeoutMs: 10_000,
      maxPendingBytes: 10_000_000,
      producers: 2,
      shareSends: true,
    });
    await publisher.connect();
    expect(publisher.partitions()).toBe(partitions);
    const sent = Array.from({ length: 40 }, (_, i) => ({
      partition: i % partitions,
      key: `user-${i}`,
      value: `row-${i}\n`,
      headers: { [ROWS_HEADER]: '1' },
    }));
    await Promise.all([publisher.publish(sent.slice(0, 25)), publisher.publish(sent.slice(25))]);
    expect(publisher.pending).toBe(0);
    await publisher.disconnect();

    const consumer = kafka.consumer({ groupId: `${prefix}publishing` });
    const received: typeof sent = [];
    await consumer.connect();
    await consumer.subscribe({ topic, fromBeginning: true });
    await new Promise<void>((resolve) => {
      void consumer.run({
        eachBatch: async ({ batch }) => {
          for (const m of batch.messages)
            received.push({
              partition: batch.partition,
              key: m.key!.toString(),
              value: m.value!.toString(),
              headers: { [ROWS_HEADER]: String(m.headers![ROWS_HEADER]) },
            });
          if (received.length >= sent.length) resolve();
        },
      });
    });
    await consumer.disconnect();
    const byKey = (a: { key: string }, b: { key: string }) => a.key.localeCompare(b.key);
    expect(received.sort(byKey)).toEqual([...sent].sort(byKey));
  });

  it.each(['gzip', 'snappy', 'lz4', 'zstd'])(
    'reads back with kafkajs (the writers) what the gateway compressed with %s (KAFKA_COMPRESSION)',
    async (codec) => {
      const compressed = { ...settings(1), topicPrefix: `${prefix}${codec}.`, compression: codec as 'gzip' };
      const kafka = createKafka(compressed);
      await ensureTopics(kafka, topicSpecs(compressed));
      const topic = topicName(compressed, 'events');
      const publisher = new PartitionPublisher(createPublishingClient(compressed), {
        topic,
        sendTimeoutMs: 10_000,
        maxPendingBytes: 10_000_000,
        producers: 1,
        shareSends: false,
      });
      await publisher.connect();
      const sent = Array.from({ length: 50 }, (_, i) => `{"event":"e","n":${i}}\n`.repeat(20));
      await publisher.publish(sent.map((value, i) => ({ partition: 0, key: `k${i}`, value, headers: {} })));
      await publisher.disconnect();

      const consumer = kafka.consumer({ groupId: `${prefix}${codec}` });
      const received: string[] = [];
      await consumer.connect();
      await consumer.subscribe({ topic, fromBeginning: true });
      await new Promise<void>((resolve) => {
        void consumer.run({
          eachBatch: async ({ batch }) => {
            received.push(...batch.messages.map((m) => m.value!.toString()));
            if (received.length >= sent.length) resolve();
          },
        });
      });
      await consumer.disconnect();
      expect(received).toEqual(sent);
    },
  );

  it("fails the gateway client's connect when no broker answers within its bound", async () => {
    const unreachable = { ...settings(1), brokers: ['127.0.0.1:1'] };
    const producer = createPublishingClient(unreachable).producer('nowhere', {
      requestTimeoutMs: 1_000,
      retryForMs: 500,
      connectForMs: 1_000,
    });
    await expect(producer.connect()).rejects.toThrow();
    await producer.disconnect();
  });
});

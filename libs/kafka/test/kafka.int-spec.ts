import { loadConfig } from '@analytics/config';
import { ACKS_ALL, createIdempotentProducer, createKafka, ensureTopics, topicName, topicSpecs } from '@analytics/kafka';
import { testKafkaBrokers, uniqueTopicPrefix } from '@analytics/testing';
import { CompressionTypes } from 'kafkajs';

describe('Kafka (real broker)', () => {
  const settings = (partitions: number) =>
    loadConfig({ KAFKA_BROKERS: testKafkaBrokers(), KAFKA_TOPIC_PREFIX: prefix, KAFKA_EVENTS_PARTITIONS: String(partitions) }).kafka!;
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
    await producer.send({ topic, acks: ACKS_ALL, compression: CompressionTypes.None, messages: sent.map((value, i) => ({ key: String(i % 7), value })) });
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
});

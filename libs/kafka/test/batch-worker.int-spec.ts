import { loadConfig } from '@analytics/config';
import {
  BatchPart,
  createIdempotentProducer,
  createKafka,
  ensureTopics,
  groupId,
  topicName,
  topicSpecs,
} from '@analytics/kafka';
import { eventually, testKafkaBrokers, uniqueTopicPrefix } from '@analytics/testing';
import { Logger } from '@nestjs/common';
import { BatchWorker } from '../src/batch-worker';

describe('BatchWorker (real broker)', () => {
  const settings = loadConfig({
    KAFKA_BROKERS: testKafkaBrokers(),
    KAFKA_TOPIC_PREFIX: uniqueTopicPrefix(),
    KAFKA_EVENTS_PARTITIONS: '2',
  }).kafka!;
  const kafka = createKafka(settings);
  const topic = topicName(settings, 'events');

  async function produce(values: string[]): Promise<void> {
    const producer = createIdempotentProducer(kafka);
    await producer.connect();
    // One send per value: each is its own record batch, so the worker sees several fetches.
    for (const [i, value] of values.entries())
      await producer.send({ topic, messages: [{ key: String(i % 2), value, partition: i % 2 }] });
    await producer.disconnect();
  }

  async function committed(): Promise<number> {
    const admin = kafka.admin();
    await admin.connect();
    const [{ partitions }] = await admin.fetchOffsets({ groupId: groupId(settings, 'eventsWriter'), topics: [topic] });
    await admin.disconnect();
    return partitions.reduce((sum, p) => sum + Math.max(Number(p.offset), 0), 0);
  }

  it('writes again a batch whose write failed while later ones were fetched, and never commits past it', async () => {
    await ensureTopics(kafka, topicSpecs(settings));
    const values = Array.from({ length: 40 }, (_, i) => `m${i}`);
    await produce(values);

    const written: string[] = [];
    let failures = 0;
    const worker = new BatchWorker(kafka, settings, {
      group: 'eventsWriter',
      topic: 'events',
      partitions: 2,
      fetch: { maxBytesPerPartition: 64, maxBytes: 128, maxWaitTimeInMs: 100 },
      gather: { flushIntervalMs: 50, maxRows: 3 },
      classify: () => 'dead-letter',
      handle: async (parts: BatchPart[]) => {
        const batch = parts.flatMap((p) => p.records.map((r) => r.value.toString()));
        // The first write that holds m10 fails once, after the consumer has fetched on.
        if (batch.includes('m10') && failures++ === 0) {
          await new Promise((resolve) => setTimeout(resolve, 300));
          throw new Error('write lost');
        }
        written.push(...batch);
        return { deadLetters: [] };
      },
      metrics: { retries: { inc: () => undefined }, deadLetters: { inc: () => undefined } },
      logger: new Logger('batch-worker-test'),
    });
    await worker.start();
    try {
      await eventually(async () => expect(new Set(written)).toEqual(new Set(values)), { timeoutMs: 60_000 });
      await eventually(async () => expect(await committed()).toBe(values.length), { timeoutMs: 30_000 });
    } finally {
      await worker.stop();
    }
    expect(failures).toBeGreaterThan(0);
  });
});

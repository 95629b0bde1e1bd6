import { ClickHouseClient } from '@analytics/clickhouse';
import { AppConfig } from '@analytics/config';
import { encodeEventRow } from '@analytics/events';
import {
  createIdempotentProducer,
  createKafka,
  ensureTopics,
  ROWS_HEADER,
  topicName,
  topicSpecs,
} from '@analytics/kafka';
import { PlatformModule } from '@analytics/runtime';
import { engineNeeds } from '@analytics/service-map';
import { createTestEnvironment, eventually, startTestApp, TestApp, TestEnvironment } from '@analytics/testing';
import { DynamicModule } from '@nestjs/common';
import { EventsConsumerModule } from '../src';

const PROJECT = 7;

function writerOnly(config: AppConfig): DynamicModule {
  return {
    module: class WriterTestModule {},
    imports: [PlatformModule.forRoot(config, engineNeeds(config, ['writer'])), EventsConsumerModule],
  };
}

describe('events writer, the events topic deleted and created again (real broker and ClickHouse)', () => {
  let environment: TestEnvironment;
  let app: TestApp;
  const settings = () => environment.config.kafka!;
  /** A client of the test's own: the writer is stopped while the topic is made anew. */
  const kafka = () => createKafka(settings());
  const topic = () => topicName(settings(), 'events');

  beforeAll(async () => {
    environment = await createTestEnvironment({ kafka: true, env: { KAFKA_EVENTS_PARTITIONS: '1' } });
    app = await startTestApp(writerOnly, environment.config);
  });
  afterAll(async () => {
    await app?.close();
    await environment?.dispose();
  });

  /** One message of the gateway's shape (the rows of the events table) on partition 0; its offset. */
  async function produce(...insertIds: string[]): Promise<string> {
    const now = Date.now();
    const value = insertIds
      .map(
        (insertId) =>
          encodeEventRow({
            projectId: PROJECT,
            event: 'Recreated',
            timeMs: now - 60_000,
            distinctId: 'd',
            insertId,
            properties: {},
            processedAtMs: now,
          }).line,
      )
      .join('');
    const producer = createIdempotentProducer(kafka());
    await producer.connect();
    try {
      const [sent] = await producer.send({
        topic: topic(),
        acks: -1,
        messages: [{ partition: 0, value, headers: { [ROWS_HEADER]: String(insertIds.length) } }],
      });
      return sent.baseOffset!;
    } finally {
      await producer.disconnect();
    }
  }

  async function stored(): Promise<string[]> {
    const result = await app.app.get(ClickHouseClient).query({
      query: 'SELECT insert_id FROM events FINAL WHERE project_id = {project:UInt32} ORDER BY insert_id',
      query_params: { project: PROJECT },
      format: 'JSONEachRow',
    });
    return (await result.json<{ insert_id: string }>()).map((row) => row.insert_id);
  }

  async function recreateTopic(): Promise<void> {
    const admin = kafka().admin();
    await admin.connect();
    try {
      await admin.deleteTopics({ topics: [topic()] });
      await eventually(async () => expect(await admin.listTopics()).not.toContain(topic()));
    } finally {
      await admin.disconnect();
    }
    // The broker may still be finishing the deletion: creating it again is retried until it takes.
    await eventually(() =>
      ensureTopics(
        kafka(),
        topicSpecs(settings()).filter((spec) => spec.topic === topic()),
      ),
    );
  }

  it('stores the events sent after it, though their offsets are those of events stored before', async () => {
    expect(await produce('before-1', 'before-2')).toBe('0');
    await eventually(async () => expect(await stored()).toEqual(['before-1', 'before-2']));

    // As docs/ingestion.md asks: the writer stopped (caught up) while the topic is made anew. A running
    // writer keeps its read position, and reads nothing until the new topic's offsets pass it.
    await app.close();
    await recreateTopic();
    // The same partition and offset as the first message: under the old token, ClickHouse took it for a retry.
    expect(await produce('after-1', 'after-2')).toBe('0');
    app = await startTestApp(writerOnly, environment.config);
    await eventually(async () => expect(await stored()).toEqual(['after-1', 'after-2', 'before-1', 'before-2']), {
      timeoutMs: 60_000,
    });
  }, 120_000);
});

import { ClickHouseClient } from '@analytics/clickhouse';
import { createIdempotentProducer, Kafka, ROWS_HEADER, topicName } from '@analytics/kafka';
import { AppConfig } from '@analytics/config';
import { eventually } from '@analytics/testing';
import { EventSink } from '../src';
import { IngestHarness, importEvent, startIngestHarness } from './ingest-harness';

describe('ingestion through the real broker', () => {
  let h: IngestHarness;

  beforeAll(async () => {
    h = await startIngestHarness({ kafka: true });
  });
  afterAll(() => h.close());

  const importJson = (events: object[]) =>
    h.post('/import', JSON.stringify(events), { Authorization: h.basic, 'Content-Type': 'application/json' });

  it('acknowledges after the broker and stores every event once, the latest duplicate winning', async () => {
    const events = Array.from({ length: 2000 }, (_, i) => importEvent(i));
    const responses = await Promise.all([importJson(events.slice(0, 1000)), importJson(events.slice(1000)), importJson(events.slice(0, 500))]);
    expect(responses.map((r) => r.status)).toEqual([200, 200, 200]);
    const original = events[3] as { properties: Record<string, unknown> };
    const latest = { event: 'Played', properties: { ...original.properties, n: 'latest' } };
    expect((await importJson([latest])).status).toBe(200);
    await eventually(async () => expect(await h.stored()).toHaveLength(2000));
    await eventually(async () => expect(JSON.parse((await h.stored("insert_id = 'ins-3'"))[0].properties)).toEqual({ n: 'latest' }));
  });

  it('sends a record ClickHouse can never store to the dead-letter topic without blocking its partition', async () => {
    const config = h.app.app.get(AppConfig);
    const kafka = h.app.app.get(Kafka);
    const producer = createIdempotentProducer(kafka);
    await producer.connect();
    await producer.send({
      topic: topicName(config.kafka!, 'events'),
      messages: [{ partition: 0, value: '{"project_id":"not a number","event":1}\n', headers: { [ROWS_HEADER]: '1' } }],
    });
    await producer.disconnect();
    expect((await importJson([importEvent(5000)])).status).toBe(200);
    await eventually(async () => expect(await h.stored("insert_id = 'ins-5000'")).toHaveLength(1));

    const consumer = kafka.consumer({ groupId: `${config.kafka!.topicPrefix}dlq-reader` });
    await consumer.connect();
    await consumer.subscribe({ topic: topicName(config.kafka!, 'eventsDeadLetter'), fromBeginning: true });
    const dead = await new Promise<{ value: string; reason: string; offset: string }>((resolve) => {
      void consumer.run({
        eachMessage: async ({ message }) =>
          resolve({ value: message.value!.toString(), reason: message.headers!.reason!.toString(), offset: message.headers!.source_offset!.toString() }),
      });
    });
    await consumer.disconnect();
    expect(dead.value).toContain('not a number');
    expect(dead.reason).toMatch(/parse|Cannot|type/i);
    expect(Number(dead.offset)).toBeGreaterThanOrEqual(0);
    const rows = await h.app.app.get(ClickHouseClient).query({ query: 'SELECT count() AS c FROM events WHERE event = \'1\'', format: 'JSONEachRow' });
    expect(await rows.json()).toEqual([{ c: 0 }]);
  });
});

describe('ingestion with the broker down', () => {
  it('answers 503 and never claims success for unpersisted events', async () => {
    const h = await startIngestHarness({ kafka: true });
    try {
      // The gateway's producer loses its broker connection for good.
      const sink = h.app.app.get(EventSink) as unknown as { producer: { disconnect(): Promise<void> } };
      await sink.producer.disconnect();
      const response = await h.post('/import', JSON.stringify([importEvent(1)]), { Authorization: h.basic, 'Content-Type': 'application/json' });
      expect(response.status).toBe(503);
      expect(await response.json()).toMatchObject({ code: 503, status: 'Service Unavailable', error: expect.stringContaining('event broker unavailable') });
    } finally {
      await h.close();
    }
  });
});

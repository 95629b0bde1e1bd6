import { ClickHouseClient } from '@analytics/clickhouse';
import { AppConfig } from '@analytics/config';
import { encodeEventRow, EventRow, partitionFor } from '@analytics/events';
import {
  createIdempotentProducer,
  DEAD_LETTER_HEADERS,
  Kafka,
  PartitionPublisher,
  ROWS_HEADER,
  topicName,
  TopicKey,
} from '@analytics/kafka';
import { eventually, installKafkaSendGate, testKafkaBrokers } from '@analytics/testing';
import { ConfigResourceTypes, Message } from 'kafkajs';
import { execFile } from 'node:child_process';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import { EventSink } from '../src/event-sink';
import { IngestHarness, importEvent, nowSeconds, startIngestHarness } from './ingest-harness';

/** Sets a topic's dynamic configuration to exactly `entries` ({} restores the broker's defaults). */
async function setTopicConfig(h: IngestHarness, key: TopicKey, entries: Record<string, string>): Promise<void> {
  const admin = h.app.app.get(Kafka).admin();
  await admin.connect();
  try {
    const name = topicName(h.app.app.get(AppConfig).kafka!, key);
    const configEntries = Object.entries(entries).map(([entry, value]) => ({ name: entry, value }));
    await admin.alterConfigs({
      validateOnly: false,
      resources: [{ type: ConfigResourceTypes.TOPIC, name, configEntries }],
    });
  } finally {
    await admin.disconnect();
  }
}

/**
 * Until the broker applies a topic configuration: a write of `rows` rows (of another project) to the
 * partition fails as `refusal` says.
 */
async function untilRefused(h: IngestHarness, partition: number, rows: number, refusal: RegExp): Promise<void> {
  const producer = h.app.app.get(Kafka).producer({ retry: { retries: 0 } });
  await producer.connect();
  try {
    await eventually(async () => {
      const value = Array.from(
        { length: rows },
        (_, i) =>
          encodeEventRow({
            projectId: 999_999,
            event: 'Probe',
            timeMs: Date.now(),
            distinctId: 'probe',
            insertId: `probe-${i}`,
            properties: { pad: 'p'.repeat(250) },
            processedAtMs: Date.now(),
          }).line,
      ).join('');
      await expect(
        producer.send({
          topic: topicName(h.app.app.get(AppConfig).kafka!, 'events'),
          acks: -1,
          messages: [{ partition, value }],
        }),
      ).rejects.toThrow(refusal);
    });
  } finally {
    await producer.disconnect();
  }
}

/** `count` events of about 1 kB for one user (strings are cut at 255 characters, so four of them). */
const largeEvents = (prefix: string, count: number, distinctId = 'one-user') =>
  Array.from({ length: count }, (_, i) => ({
    event: 'Large',
    properties: {
      time: nowSeconds() - 100,
      distinct_id: distinctId,
      $insert_id: `${prefix}-${i}`,
      a: 'a'.repeat(250),
      b: 'b'.repeat(250),
      c: 'c'.repeat(250),
      d: 'd'.repeat(250),
    },
  }));

interface Consumed {
  offset: string;
  value: string;
  headers: Record<string, string>;
}

describe('ingestion through the real broker', () => {
  let h: IngestHarness;

  beforeAll(async () => {
    h = await startIngestHarness({ kafka: true });
  });
  afterAll(() => h.close());

  const importJson = (events: object[]) => importText(JSON.stringify(events));
  const importText = (body: string) =>
    h.post('/import', body, { Authorization: h.basic, 'Content-Type': 'application/json' });
  const settings = () => h.app.app.get(AppConfig).kafka!;

  /** A message as the gateway writes it: the rows of the events table. */
  const rowsMessage = (...insertIds: string[]): Message => ({
    partition: 0,
    value: insertIds
      .map(
        (insertId) =>
          encodeEventRow({
            projectId: h.project.id,
            event: 'Direct',
            timeMs: Date.now() - 60_000,
            distinctId: 'direct',
            insertId,
            properties: {},
            processedAtMs: Date.now(),
          }).line,
      )
      .join(''),
    headers: { [ROWS_HEADER]: String(insertIds.length) },
  });

  async function produce(key: TopicKey, messages: Message[]): Promise<string> {
    const producer = createIdempotentProducer(h.app.app.get(Kafka));
    await producer.connect();
    try {
      const [sent] = await producer.send({ topic: topicName(settings(), key), acks: -1, messages });
      return sent.baseOffset!;
    } finally {
      await producer.disconnect();
    }
  }

  /** The messages of a topic read until `enough` says so. */
  async function readTopic(key: TopicKey, enough: (messages: Consumed[]) => boolean): Promise<Consumed[]> {
    const consumer = h.app.app.get(Kafka).consumer({ groupId: `${settings().topicPrefix}reader-${Math.random()}` });
    await consumer.connect();
    await consumer.subscribe({ topic: topicName(settings(), key), fromBeginning: true });
    const messages: Consumed[] = [];
    await new Promise<void>((resolve) => {
      void consumer.run({
        eachMessage: async ({ message }) => {
          messages.push({
            offset: message.offset,
            value: message.value?.toString() ?? '',
            headers: Object.fromEntries(Object.entries(message.headers ?? {}).map(([k, v]) => [k, String(v)])),
          });
          if (enough(messages)) resolve();
        },
      });
    });
    await consumer.disconnect();
    return messages;
  }

  it('acknowledges after the broker and stores every event once, the latest duplicate winning', async () => {
    const events = Array.from({ length: 2000 }, (_, i) => importEvent(i));
    const responses = await Promise.all([
      importJson(events.slice(0, 1000)),
      importJson(events.slice(1000)),
      importJson(events.slice(0, 500)),
    ]);
    expect(responses.map((r) => r.status)).toEqual([200, 200, 200]);
    const original = events[3] as { properties: Record<string, unknown> };
    const latest = { event: 'Played', properties: { ...original.properties, n: 'latest' } };
    expect((await importJson([latest])).status).toBe(200);
    await eventually(async () => expect(await h.stored()).toHaveLength(2000));
    await eventually(async () =>
      expect(JSON.parse((await h.stored("insert_id = 'ins-3'"))[0].properties)).toEqual({ n: 'latest' }),
    );
  });

  it('stores a lone surrogate as U+FFFD wherever it stands, and keeps ingesting after it', async () => {
    // Valid JSON that JSON.parse turns into strings with unpaired surrogates.
    const body = `[{"event":"a\\ud800b","properties":{"time":${nowSeconds() - 50},"distinct_id":"x\\udc00","$insert_id":"abc123","k\\udbff":"v\\ud800","l":["\\udfff","\\ud83d\\ude00"]}}]`;
    expect((await importText(body)).status).toBe(200);
    expect((await importJson([importEvent(6000)])).status).toBe(200);
    await eventually(async () => expect(await h.stored("insert_id = 'ins-6000'")).toHaveLength(1));
    const [stored] = await eventually(async () => {
      const rows = await h.stored("insert_id = 'abc123'");
      expect(rows).toHaveLength(1);
      return rows;
    });
    expect(stored).toMatchObject({ event: 'a\ufffdb', distinct_id: 'x\ufffd' });
    expect(JSON.parse(stored.properties)).toEqual({ 'k\ufffd': 'v\ufffd', l: ['\ufffd', '😀'] });
  });

  it('stores an import of history spanning more than 100 months, the partitions ClickHouse allows one insert by default', async () => {
    const events = Array.from({ length: 150 }, (_, i) => ({
      event: 'History',
      properties: { time: Date.UTC(1980, i, 2) / 1000, distinct_id: 'h', $insert_id: `hist-${i}` },
    }));
    expect((await importJson(events)).status).toBe(200);
    await eventually(async () => expect(await h.stored("event = 'History'")).toHaveLength(150));
  });

  it('dead-letters a message ClickHouse refuses even alone, with its reason, and stores the rest of its batch', async () => {
    // Written straight to the topic, past the gateway: a lone surrogate escape (which ClickHouse
    // refuses to parse) and a value of the wrong type, between good messages of the same partition.
    const surrogate = rowsMessage('poison-1');
    surrogate.value = String(surrogate.value).replace('"distinct_id":"direct"', '"distinct_id":"x\\ud800"');
    const first = await produce('events', [
      rowsMessage('direct-1', 'direct-2'),
      surrogate,
      rowsMessage('direct-3'),
      { partition: 0, value: '{"project_id":"not a number","event":1}\n' },
      rowsMessage('direct-4'),
    ]);
    await eventually(async () =>
      expect((await h.stored("event = 'Direct'")).map((e) => e.insert_id)).toEqual([
        'direct-1',
        'direct-2',
        'direct-3',
        'direct-4',
      ]),
    );

    const dead = await readTopic('eventsDeadLetter', (messages) => messages.length >= 2);
    const byOffset = new Map(dead.map((d) => [d.headers[DEAD_LETTER_HEADERS.sourceOffset], d]));
    const escape = byOffset.get(String(BigInt(first) + 1n))!;
    expect(escape.value).toContain('poison-1');
    expect(escape.headers).toMatchObject({
      [DEAD_LETTER_HEADERS.reason]: expect.stringContaining('missing second part of surrogate pair'),
      [DEAD_LETTER_HEADERS.reasonCode]: 'CANNOT_PARSE_ESCAPE_SEQUENCE',
      [DEAD_LETTER_HEADERS.sourceTopic]: topicName(settings(), 'events'),
      [DEAD_LETTER_HEADERS.sourcePartition]: '0',
      [ROWS_HEADER]: '1',
    });
    const typed = byOffset.get(String(BigInt(first) + 3n))!;
    expect(typed.value).toContain('not a number');
    expect(typed.headers[DEAD_LETTER_HEADERS.reason]).toMatch(/Cannot parse input/);
    const rows = await h.app.app.get(ClickHouseClient).query({
      query: "SELECT count() AS c FROM events WHERE event = '1' OR insert_id = 'poison-1'",
      format: 'JSONEachRow',
    });
    expect(await rows.json()).toEqual([{ c: 0 }]);
  });
  it("stores a request of more than 1 MB for one user: its partition gets several sends, each under the broker's batch limit", async () => {
    const events = largeEvents('large', 1500);
    expect((await importJson(events)).status).toBe(200);
    await eventually(async () => expect(await h.stored("event = 'Large'")).toHaveLength(1500));
  });

  it('answers each request by its own partitions: a partition that refuses a batch fails no request without messages in it', async () => {
    const sink = h.app.app.get(EventSink);
    const partitions = settings().eventsPartitions;
    const userOn = (partition: number) => {
      for (let i = 0; ; i++) if (partitionFor(h.project.id, `iso-${i}`, partitions) === partition) return `iso-${i}`;
    };
    const row = (distinctId: string, insertId: string, projectId = h.project.id): EventRow =>
      encodeEventRow({
        projectId,
        event: 'Isolated',
        timeMs: Date.now() - 60_000,
        distinctId,
        insertId,
        properties: { pad: 'p'.repeat(250) },
        processedAtMs: Date.now(),
      });
    const [refusing, healthy] = [0, 1];
    // The broker refuses record batches over 20 kB on every partition: only a large request meets it.
    await setTopicConfig(h, 'events', { 'max.message.bytes': '20000' });
    try {
      await untilRefused(h, refusing, 100, /larger than the max message size/);
      // Arriving while the first is in flight, the next two would share one send if requests were merged.
      const first = sink.publish(h.project.id, [row(userOn(healthy), 'iso-first')]);
      const large = sink.publish(
        h.project.id,
        Array.from({ length: 100 }, (_, i) => row(userOn(refusing), `iso-large-${i}`)),
      );
      const small = sink.publish(h.project.id, [row(userOn(healthy), 'iso-small')]);
      await expect(large).rejects.toThrow(/^event broker unavailable: .*larger than the max message size/);
      await expect(first).resolves.toEqual([]);
      await expect(small).resolves.toEqual([]);
    } finally {
      await setTopicConfig(h, 'events', {});
    }
    // The refusing partition takes sends again (a new producer: the old one's sequence number there is not trusted).
    const later = userOn(refusing);
    expect(
      (
        await importJson([
          { event: 'Isolated', properties: { time: nowSeconds() - 60, distinct_id: later, $insert_id: 'iso-later' } },
        ])
      ).status,
    ).toBe(200);
    await eventually(async () =>
      expect((await h.stored("event = 'Isolated'")).map((e) => e.insert_id).sort()).toEqual([
        'iso-first',
        'iso-later',
        'iso-small',
      ]),
    );
  });

  /** `npm run dlq:replay` as built into dist/ by global setup. */
  async function replay(args: string[]): Promise<string> {
    const script = resolve(__dirname, '../../../dist/apps/admin/src/dlq-replay.js');
    // DATABASE_URL: the replay reads which deletions ran (docs/compliance.md, "Dead letters").
    const env = {
      PATH: process.env.PATH ?? '',
      KAFKA_BROKERS: testKafkaBrokers(),
      KAFKA_TOPIC_PREFIX: settings().topicPrefix,
      DATABASE_URL: h.environment.env.DATABASE_URL,
      LOG_LEVEL: 'warn',
    };
    const { stdout } = await promisify(execFile)(process.execPath, [script, ...args], { env });
    return stdout;
  }

  it('replays a dead letter once it can be written: listed with its reason by a dry run, then stored once', async () => {
    const letter = rowsMessage('replayed-1');
    letter.headers = {
      ...letter.headers,
      [DEAD_LETTER_HEADERS.reason]: 'refused while the table was being migrated',
      [DEAD_LETTER_HEADERS.reasonCode]: 'UNKNOWN_TABLE',
      [DEAD_LETTER_HEADERS.sourceTopic]: topicName(settings(), 'events'),
      [DEAD_LETTER_HEADERS.sourcePartition]: '2',
      [DEAD_LETTER_HEADERS.sourceOffset]: '12345',
    };
    const offset = await produce('eventsDeadLetter', [letter]);
    const dlq = topicName(settings(), 'eventsDeadLetter');

    const dry = await replay(['--from-offset', offset, '--topic', 'events', '--dry-run']);
    expect(dry).toContain(
      `${dlq}[0]@${offset}  from ${topicName(settings(), 'events')}[2]@12345  UNKNOWN_TABLE  refused while the table was being migrated`,
    );
    expect(dry).toContain(
      `${dlq}: would replay 1 dead letter(s) to ${topicName(settings(), 'events')}; 1 × UNKNOWN_TABLE`,
    );

    const done = await replay(['--from-offset', offset, '--topic', 'events']);
    expect(done).toContain(`${dlq}[0]: next run --from-offset ${BigInt(offset) + 1n}`);
    await eventually(async () => expect(await h.stored("insert_id = 'replayed-1'")).toHaveLength(1));
    const back = (await readTopic('events', (messages) => messages.some((m) => m.value.includes('replayed-1')))).find(
      (m) => m.value.includes('replayed-1'),
    )!;
    expect(back.headers).toEqual({ [ROWS_HEADER]: '1', replayed_from: `${dlq}:0:${offset}` });

    // Written once: a later message of the same partition is stored, and still one row (not collapsed: one).
    await produce('events', [{ ...rowsMessage('after-replay'), partition: 2 }]);
    await eventually(async () => expect(await h.stored("insert_id = 'after-replay'")).toHaveLength(1));
    const rows = await h.app.app
      .get(ClickHouseClient)
      .query({ query: "SELECT count() AS c FROM events WHERE insert_id = 'replayed-1'", format: 'JSONEachRow' });
    expect(await rows.json()).toEqual([{ c: 1 }]);
  });
});

describe('ingestion with the broker down', () => {
  it('answers 503 and never claims success for unpersisted events', async () => {
    const h = await startIngestHarness({ kafka: true });
    try {
      // The gateway's producers lose their broker connections for good.
      const sink = h.app.app.get(EventSink) as unknown as { publisher: PartitionPublisher };
      await sink.publisher.disconnect();
      const response = await h.post('/import', JSON.stringify([importEvent(1)]), {
        Authorization: h.basic,
        'Content-Type': 'application/json',
      });
      expect(response.status).toBe(503);
      expect(await response.json()).toMatchObject({
        code: 503,
        status: 'Service Unavailable',
        error: expect.stringContaining('event broker unavailable'),
      });
    } finally {
      await h.close();
    }
  });

  it('answers 503 at once, queueing nothing, when too much already waits for the broker', async () => {
    const gate = installKafkaSendGate();
    const h = await startIngestHarness({
      kafka: true,
      env: { INGEST_KAFKA_MAX_PENDING_BYTES: '1048576', INGEST_KAFKA_SEND_TIMEOUT_MS: '2000' },
    });
    try {
      // The broker stops answering: what the gateway sends waits.
      gate.close();
      const publisher = (h.app.app.get(EventSink) as unknown as { publisher: PartitionPublisher }).publisher;
      const importLarge = (prefix: string) =>
        h.post('/import', JSON.stringify(largeEvents(prefix, 700)), {
          Authorization: h.basic,
          'Content-Type': 'application/json',
        });
      const first = importLarge('waiting');
      await eventually(() => expect(publisher.pending).toBeGreaterThan(500_000));

      const refused = await importLarge('refused');
      expect(refused.status).toBe(503);
      expect(refused.headers.get('retry-after')).toBe('1');
      expect(await refused.json()).toEqual({
        code: 503,
        error: expect.stringMatching(
          /^event broker unavailable: too many events wait for it on this gateway \(\d+ bytes already wait for the broker \(limit 1048576\)\); retry shortly$/,
        ),
        num_records_imported: 0,
        status: 'Service Unavailable',
      });
      const track = await h.post(
        '/track?verbose=1',
        `data=${encodeURIComponent(JSON.stringify(largeEvents('track', 700).map((e) => ({ ...e, properties: { ...e.properties, token: h.project.token } }))))}`,
        {
          'Content-Type': 'application/x-www-form-urlencoded',
        },
      );
      expect(track.status).toBe(503);
      expect(await track.json()).toEqual({
        error: expect.stringMatching(/^event broker unavailable: too many events wait/),
        status: 0,
      });

      // The first was never acknowledged: its deadline answers it.
      const answer = await first;
      expect(answer.status).toBe(503);
      expect(await answer.json()).toMatchObject({ error: 'event broker unavailable: no acknowledgement within 2 s' });
      expect(publisher.pending).toBeGreaterThan(0);

      // Answering again, it takes requests again once the held sends are done.
      gate.open();
      await eventually(() => expect(publisher.pending).toBe(0));
      expect((await importLarge('after')).status).toBe(200);
    } finally {
      gate.open();
      await h.close();
      gate.restore();
    }
  });
});

import { ClickHouseClient } from '@analytics/clickhouse';
import { encodeEventRow } from '@analytics/events';
import { encodeLink } from '@analytics/identity';
import {
  ACKS_ALL,
  ConsumedTopicKey,
  createIdempotentProducer,
  DEAD_LETTER_TOPICS,
  deadLetterMessage,
  Kafka,
  REPLAYED_FROM_HEADER,
  ROWS_HEADER,
  topicName,
} from '@analytics/kafka';
import { Postgres, selectRows } from '@analytics/postgres';
import { eventually, testKafkaBrokers } from '@analytics/testing';
import { sql } from 'drizzle-orm';
import { execFile } from 'node:child_process';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import { bearer, ComplianceHarness, event, TestProject } from './compliance-harness';

const DELETIONS = '/api/app/data-deletions/v3.0';

/**
 * Deletion and the dead-letter topics, on the real broker with the writers mounted: alice's and
 * bob's event rows (one letter), profile updates and identity links wait in the dead-letter topics;
 * a deletion of alice finishes; `npm run dlq:replay` (as built into dist/) then sends back bob's,
 * with the events stamped with the replay's time, and nothing of alice's.
 */
describe('dlq:replay after a deletion', () => {
  let h: ComplianceHarness;
  let project: TestProject;
  const settings = () => h.environment.config.kafka!;

  beforeAll(async () => {
    h = await ComplianceHarness.start(
      { startAfterSeconds: 0 },
      { kafka: true, services: ['ingest', 'writer', 'management'] },
    );
    project = await h.project();
  });
  afterAll(async () => {
    await h?.close();
  });

  async function deadLetter(
    topic: ConsumedTopicKey,
    values: string[],
    headers: Record<string, string> = {},
  ): Promise<void> {
    const producer = createIdempotentProducer(h.app.app.get(Kafka));
    await producer.connect();
    try {
      const messages = values.map((value, offset) =>
        deadLetterMessage(
          { offset: String(offset), value: Buffer.from(value), headers, rows: 1 },
          {
            ref: { topic: topicName(settings(), topic), partition: 0, offset: String(offset) },
            reason: 'refused while the table was being migrated',
          },
        ),
      );
      await producer.send({ topic: topicName(settings(), DEAD_LETTER_TOPICS[topic]), acks: ACKS_ALL, messages });
    } finally {
      await producer.disconnect();
    }
  }

  async function replay(): Promise<string> {
    const script = resolve(__dirname, '../../../dist/apps/admin/src/dlq-replay.js');
    const env = {
      PATH: process.env.PATH ?? '',
      KAFKA_BROKERS: testKafkaBrokers(),
      KAFKA_TOPIC_PREFIX: settings().topicPrefix,
      DATABASE_URL: h.environment.env.DATABASE_URL,
      LOG_LEVEL: 'warn',
    };
    const { stdout } = await promisify(execFile)(process.execPath, [script, '--from-offset', '0'], { env });
    return stdout;
  }

  /** Every message the replay put on a topic (those with its header), read to the topic's end. */
  async function replayed(topic: ConsumedTopicKey): Promise<string[]> {
    const kafka = h.app.app.get(Kafka);
    const admin = kafka.admin();
    await admin.connect();
    const ends = new Map(
      (await admin.fetchTopicOffsets(topicName(settings(), topic)))
        .filter((o) => o.high !== '0')
        .map((o) => [o.partition, BigInt(o.high) - 1n]),
    );
    await admin.disconnect();
    const consumer = kafka.consumer({ groupId: `${settings().topicPrefix}reader-${Math.random()}` });
    const values: string[] = [];
    await consumer.connect();
    try {
      await consumer.subscribe({ topic: topicName(settings(), topic), fromBeginning: true });
      await new Promise<void>((done) => {
        if (!ends.size) done();
        void consumer.run({
          eachMessage: async ({ partition, message }) => {
            if (message.headers?.[REPLAYED_FROM_HEADER]) values.push(message.value!.toString());
            if (BigInt(message.offset) >= ends.get(partition)!) ends.delete(partition);
            if (!ends.size) done();
          },
        });
      });
    } finally {
      await consumer.disconnect();
    }
    return values;
  }

  const mapped = async (ids: string[]) => {
    const result = await h.app.app.get(ClickHouseClient).query({
      query:
        'SELECT distinct_id, person_id FROM identity_map FINAL WHERE project_id = {p:UInt32} AND (distinct_id IN {ids:Array(String)} OR person_id IN {ids:Array(String)}) ORDER BY distinct_id',
      query_params: { p: project.id, ids },
      format: 'JSONEachRow',
    });
    return result.json<{ distinct_id: string; person_id: string }>();
  };

  it("keeps the deleted person's dead letters out and replays everyone else's with a new processed_at", async () => {
    const owner = await h.oauthToken(h.organizationId, 'owner');
    await h.import(project, [event('alice', 'a-stored'), event('bob', 'b-stored')]);
    await eventually(
      async () => expect(await h.eventIds(project, ['alice', 'bob'])).toEqual(['a-stored', 'b-stored']),
      { timeoutMs: 30_000 },
    );

    // Acknowledged and dead-lettered before the deletion request.
    const acknowledged = Date.now() - 1000;
    const row = (distinctId: string, insertId: string) =>
      encodeEventRow({
        projectId: project.id,
        event: 'Played',
        timeMs: acknowledged - 60_000,
        distinctId,
        insertId,
        properties: { from: 'dlq' },
        processedAtMs: acknowledged,
      }).line;
    await deadLetter('events', [row('alice', 'a-dlq') + row('bob', 'b-dlq')], { [ROWS_HEADER]: '2' });
    const update = (profileId: string) =>
      JSON.stringify({
        projectId: project.id,
        groupKey: '',
        profileId,
        op: '$set',
        properties: { plan: 'dlq' },
        timeMs: acknowledged,
        timed: false,
        ignoreTime: false,
      });
    await deadLetter('profiles', [update('alice'), update('bob')]);
    const link = (device: string, user: string) =>
      encodeLink({ projectId: project.id, mode: 'simplified', a: `$device:${device}`, b: user, timeMs: acknowledged });
    await deadLetter('identities', [link('dev-a', 'alice'), link('dev-b', 'bob')]);

    const created = await h.call('POST', `${DELETIONS}?token=${project.token}`, {
      authorization: bearer(owner),
      body: { distinct_ids: ['alice'] },
    });
    expect(created.status).toBe(201);
    const id = created.body.results.task_id as string;
    await eventually(
      async () =>
        expect(
          (await h.call('GET', `${DELETIONS}/${id}?token=${project.token}`, { authorization: bearer(owner) })).body
            .results.status,
        ).toBe('SUCCESS'),
      {
        timeoutMs: 60_000,
        intervalMs: 250,
      },
    );
    const [{ requested_at: requestedAt }] = await selectRows<{ requested_at: Date | string }>(
      h.app.app.get(Postgres).db,
      sql`select requested_at from compliance_jobs where id = ${id}`,
    );
    expect(await h.eventIds(project, ['alice'])).toEqual([]);

    const report = await replay();

    // Bob's come back: the event stamped with the replay's time, the profile update and the link applied.
    await eventually(async () => expect(await h.eventIds(project, ['bob'])).toEqual(['b-dlq', 'b-stored']), {
      timeoutMs: 30_000,
    });
    const result = await h.app.app.get(ClickHouseClient).query({
      query:
        "SELECT toUnixTimestamp64Milli(processed_at) AS at FROM events FINAL WHERE project_id = {p:UInt32} AND insert_id = 'b-dlq'",
      query_params: { p: project.id },
      format: 'JSONEachRow',
    });
    const [{ at }] = await result.json<{ at: string }>();
    expect(Number(at)).toBeGreaterThan(new Date(requestedAt).getTime());
    await eventually(
      async () => expect(await h.profileRows(project, ['bob'])).toEqual({ postgres: 1, mirror: expect.any(Number) }),
      { timeoutMs: 30_000 },
    );
    await eventually(
      async () => expect(await mapped(['bob'])).toEqual([{ distinct_id: '$device:dev-b', person_id: 'bob' }]),
      { timeoutMs: 30_000 },
    );

    // Nothing of alice's was sent back, so nothing of hers is stored again.
    for (const topic of ['events', 'profiles', 'identities'] as const)
      expect((await replayed(topic)).filter((value) => value.includes('alice'))).toEqual([]);
    expect(await h.eventIds(project, ['alice'])).toEqual([]);
    expect(await h.profileRows(project, ['alice'])).toEqual({ postgres: 0, mirror: 0 });
    expect(await mapped(['alice', '$device:dev-a'])).toEqual([]);
    // The report names what was left out.
    expect(report).toMatch(
      /events\.dlq: replayed 1 dead letter\(s\) to .*events; 1 × refused while the table was being migrated; 1 row\(s\) left out \(a deletion erased their ids\)/,
    );
    expect(report).toMatch(/profiles\.dlq: replayed 1 dead letter\(s\) to .*; 1 row\(s\) left out/);
    expect(report).toMatch(/identities\.dlq: replayed 1 dead letter\(s\) to .*; 1 row\(s\) left out/);
  }, 180_000);
});

import { AppConfig } from '@analytics/config';
import { createIdempotentProducer, createKafka, Kafka, topicName, TopicKey } from '@analytics/kafka';
import { ProfilesMirrorRepository } from '@analytics/profile-store';
import { ProfileUpdate } from '@analytics/profile-updates';
import { createTestEnvironment, eventually, installKafkaSendGate, TestEnvironment } from '@analytics/testing';
import fc from 'fast-check';
import { randomBytes } from 'node:crypto';
import { PROFILES_WRITER_GROUP } from '../src';
import { KafkaRef, PartitionUpdates } from '../src/pending-updates';
import { ProfileWriter } from '../src/profile-writer.service';
import { recordSequence, ReferenceProfiles, requests, toRecords } from './profile-reference';
import { ProfilesHarness, queried, startProfilesHarness } from './profiles-harness';

const SEED = Number(process.env.PROFILES_SEED ?? Math.floor(Math.random() * 2 ** 31));

/** The messages of a topic from its start, until `enough` of them were read, with their headers. */
async function readTopic(
  h: ProfilesHarness,
  key: TopicKey,
  enough: (messages: { value: string; headers: Record<string, string> }[]) => boolean,
): Promise<{ value: string; headers: Record<string, string> }[]> {
  const config = h.app.app.get(AppConfig);
  const consumer = h.app.app.get(Kafka).consumer({ groupId: `${config.kafka!.topicPrefix}reader-${Math.random()}` });
  await consumer.connect();
  await consumer.subscribe({ topic: topicName(config.kafka!, key), fromBeginning: true });
  const messages: { value: string; headers: Record<string, string> }[] = [];
  await new Promise<void>((resolve) => {
    void consumer.run({
      eachMessage: async ({ message }) => {
        const headers = Object.fromEntries(Object.entries(message.headers ?? {}).map(([k, v]) => [k, String(v)]));
        messages.push({ value: message.value?.toString() ?? '', headers });
        if (enough(messages)) resolve();
      },
    });
  });
  await consumer.disconnect();
  return messages;
}

describe('profiles through the real broker', () => {
  let environment: TestEnvironment;
  let h: ProfilesHarness;

  beforeAll(async () => {
    environment = await createTestEnvironment({ kafka: true });
    h = await startProfilesHarness({}, environment);
  });
  afterAll(async () => {
    await h?.close();
    await environment?.dispose();
  });

  const record = (id: string, operation: object) => ({ $token: h.project.token, $distinct_id: id, ...operation });

  it('dead-letters what can never apply, with the reason, without blocking the partition', async () => {
    const config = h.app.app.get(AppConfig);
    const producer = createIdempotentProducer(h.app.app.get(Kafka));
    await producer.connect();
    await producer.send({
      topic: topicName(config.kafka!, 'profiles'),
      messages: [{ key: 'x', value: '{"not":"an update"}' }],
    });
    await producer.disconnect();
    await h.send('engage', [
      record('dlq', { $set: { s: 'text' } }),
      record('dlq', { $add: { s: 1 } }),
      record('dlq', { $set: { after: true } }),
    ]);
    await eventually(async () =>
      expect((await h.stored(['dlq'])).get('dlq')).toMatchObject({ s: 'text', after: true }),
    );
    const dead = (await readTopic(h, 'profilesDeadLetter', (m) => m.length >= 2)).slice(0, 2);
    expect(dead.map((d) => d.headers.reason).sort()).toEqual([
      '$add: "s" holds a string, not a number',
      'not a profile update: not a profile update',
    ]);
    expect(dead.find((d) => d.headers.reason.startsWith('$add'))!.value).toContain('"profileId":"dlq"');
    expect(
      dead.every(
        (d) => Number(d.headers.source_offset) >= 0 && d.headers.source_topic === topicName(config.kafka!, 'profiles'),
      ),
    ).toBe(true);
  });

  it('dead-letters an update whose row Postgres refuses as too large (SQLSTATE class 54) instead of retrying it forever', async () => {
    const config = h.app.app.get(AppConfig);
    // Written by no gateway (ids are cut at 255 characters there): an index row over Postgres's 2704 bytes.
    const oversized: ProfileUpdate = {
      projectId: h.project.id,
      groupKey: '',
      profileId: randomBytes(1600).toString('hex'),
      op: '$set',
      properties: { a: 1 },
      timeMs: Date.now(),
      timed: false,
      ignoreTime: false,
    };
    const producer = createIdempotentProducer(h.app.app.get(Kafka));
    await producer.connect();
    await producer.send({
      topic: topicName(config.kafka!, 'profiles'),
      messages: [{ key: 'oversized', value: JSON.stringify(oversized) }],
    });
    await producer.disconnect();
    await h.send('engage', [record('after-oversized', { $set: { applied: true } })]);
    await eventually(async () =>
      expect((await h.stored(['after-oversized'])).get('after-oversized')).toMatchObject({ applied: true }),
    );
    const dead = await readTopic(h, 'profilesDeadLetter', (m) =>
      m.some((d) => d.headers.reason.includes('SQLSTATE 54')),
    );
    expect(dead.find((d) => d.headers.reason.includes('SQLSTATE 54'))!.headers.reason).toMatch(
      /^Postgres refused the update: SQLSTATE 54000: index row size \d+ exceeds/,
    );
  });

  it("acknowledges once the broker has the updates; the writer applies each profile's updates in order, across concurrent senders", async () => {
    const senders = 6;
    const rounds = 12;
    const send = async (sender: number) => {
      for (let round = 0; round < rounds; round++) {
        const answer = await h.send('engage', [
          record('k-shared', { $add: { total: 1 } }),
          record(`k-own-${sender}`, { $append: { seen: round } }),
        ]);
        expect(answer.text).toBe('1');
      }
    };
    await Promise.all(Array.from({ length: senders }, (_, sender) => send(sender)));
    const ids = ['k-shared', ...Array.from({ length: senders }, (_, s) => `k-own-${s}`)];
    const expectApplied = (profiles: Map<string, Record<string, unknown>>) => {
      expect(profiles.get('k-shared')?.total).toBe(senders * rounds);
      for (let s = 0; s < senders; s++)
        expect(profiles.get(`k-own-${s}`)?.seen).toEqual(Array.from({ length: rounds }, (_, r) => r));
    };
    await eventually(async () => expectApplied(await h.stored(ids)));
    await eventually(async () => expectApplied(await queried(h, ids)));
  });

  it('agrees with the reference semantics on generated sequences', async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(
        recordSequence(3),
        fc.array(fc.integer({ min: 1, max: 10 }), { maxLength: 6 }),
        async (generated, sizes) => {
          const prefix = `kafka-run${run++}`;
          const records = toRecords(prefix, generated);
          const reference = new ReferenceProfiles();
          records.forEach((r) => reference.apply(r));
          for (const request of requests(records, sizes))
            expect(
              (
                await h.send(
                  'engage',
                  request.map((r) => ({ ...r, $token: h.project.token })),
                )
              ).text,
            ).toBe('1');
          const ids = [0, 1, 2].map((i) => `${prefix}-${i}`);
          const expected = new Map(
            ids.flatMap((id) => (reference.properties(id) ? [[id, reference.properties(id)]] : [])),
          );
          await eventually(async () => expect(await queried(h, ids)).toEqual(expected));
          expect(await h.stored(ids)).toEqual(expected);
        },
      ),
      { seed: SEED, numRuns: 8 },
    );
  });

  it('applies a redelivered batch once: no $add or $append counts twice, and the mirror is repaired', async () => {
    const writer = h.app.app.get(ProfileWriter);
    const update = (offset: number, operation: object): { ref: KafkaRef; update: ProfileUpdate } => ({
      ref: { topic: 'redelivery', partition: 3, offset: String(offset) },
      update: {
        projectId: h.project.id,
        groupKey: '',
        profileId: 'redelivered',
        timeMs: Date.now(),
        timed: false,
        ignoreTime: false,
        ...operation,
      } as ProfileUpdate,
    });
    const batch = (updates: { ref: KafkaRef; update: ProfileUpdate }[]): PartitionUpdates => ({
      topic: 'redelivery',
      partition: 3,
      updates,
      nextOffset: BigInt(updates[updates.length - 1].ref.offset) + 1n,
    });
    const first = [
      update(0, { op: '$add', properties: { n: 5 } }),
      update(1, { op: '$append', properties: { l: 'x' } }),
    ];
    await writer.applyFromKafka([batch(first)]);
    await writer.applyFromKafka([batch(first)]);
    // Delivered again with more behind it: only the new update applies.
    await writer.applyFromKafka([batch([...first, update(2, { op: '$add', properties: { n: 1 } })])]);
    expect((await h.stored(['redelivered'])).get('redelivered')).toMatchObject({ n: 6, l: ['x'] });
    expect((await queried(h, ['redelivered'])).get('redelivered')).toMatchObject({ n: 6, l: ['x'] });

    // The writer stopped between Postgres and ClickHouse: delivered again, the mirror catches up.
    const mirror = h.app.app.get(ProfilesMirrorRepository);
    const lost = [update(3, { op: '$set', properties: { late: true } })];
    jest.spyOn(mirror, 'insert').mockRejectedValueOnce(new Error('ClickHouse went away'));
    await expect(writer.applyFromKafka([batch(lost)])).rejects.toThrow('ClickHouse went away');
    expect((await queried(h, ['redelivered'])).get('redelivered')).not.toHaveProperty('late');
    await writer.applyFromKafka([batch(lost)]);
    expect((await queried(h, ['redelivered'])).get('redelivered')).toMatchObject({ n: 6, l: ['x'], late: true });
  });

  it('writes a batch of several projects in one go, each profile under its own project', async () => {
    const writer = h.app.app.get(ProfileWriter);
    const other = await h.createProject('Other');
    const update = (
      offset: number,
      projectId: number,
      operation: object,
    ): { ref: KafkaRef; update: ProfileUpdate } => ({
      ref: { topic: 'mixed', partition: 0, offset: String(offset) },
      update: {
        projectId,
        groupKey: '',
        profileId: 'same-id',
        timeMs: Date.now(),
        timed: false,
        ignoreTime: false,
        ...operation,
      } as ProfileUpdate,
    });
    const updates = [
      update(0, other.id, { op: '$set', properties: { of: 'other' } }),
      update(1, h.project.id, { op: '$set', properties: { of: 'first' } }),
      update(2, other.id, { op: '$add', properties: { n: 2 } }),
    ];
    await writer.applyFromKafka([{ topic: 'mixed', partition: 0, updates, nextOffset: 3n }]);

    expect((await h.stored(['same-id'])).get('same-id')).toMatchObject({ of: 'first' });
    expect((await h.stored(['same-id'])).get('same-id')).not.toHaveProperty('n');
    expect((await h.stored(['same-id'], '', other)).get('same-id')).toMatchObject({ of: 'other', n: 2 });
    expect((await queried(h, ['same-id'])).get('same-id')).toMatchObject({ of: 'first' });
  });

  it('deletes: gone from Postgres, a tombstone in the mirror', async () => {
    await h.send('engage', [record('k-del', { $set: { a: 1 } })]);
    await eventually(async () => expect((await queried(h, ['k-del'])).size).toBe(1));
    await h.send('engage', [record('k-del', { $delete: '' })]);
    await eventually(async () => expect((await h.mirrorRows(['k-del'])).map((r) => r.is_deleted)).toContain(1));
    expect((await h.stored(['k-del'])).size).toBe(0);
    expect((await queried(h, ['k-del'])).size).toBe(0);
  });

  it('a writer that starts over from the first offset re-applies nothing', async () => {
    const ids = ['k-shared', 'k-own-0'];
    const before = await h.stored(ids);
    const project = h.project;
    await h.close();
    const admin = createKafka(environment.config.kafka!).admin();
    await admin.connect();
    await admin.resetOffsets({
      groupId: `${environment.config.kafka!.topicPrefix}${PROFILES_WRITER_GROUP}`,
      topic: topicName(environment.config.kafka!, 'profiles'),
      earliest: true,
    });
    await admin.disconnect();
    h = await startProfilesHarness({}, environment);
    // Behind everything consumed again on its partition: once it is applied, the old updates were read again.
    await h.send('engage', [{ $token: project.token, $distinct_id: 'k-shared', $set: { restarted: true } }]);
    await eventually(async () =>
      expect((await h.stored(['k-shared'], '', project)).get('k-shared')).toHaveProperty('restarted', true),
    );
    const after = await h.stored(ids, '', project);
    expect(after.get('k-shared')).toEqual({
      ...before.get('k-shared'),
      restarted: true,
      $last_seen: expect.any(String),
    });
    expect(after.get('k-own-0')).toEqual(before.get('k-own-0'));
  });
});

describe('profiles with a broker that stops answering', () => {
  it("answers /engage and /groups 503 at the send deadline, in the SDK transport's shape", async () => {
    const gate = installKafkaSendGate();
    const h = await startProfilesHarness({ kafka: true, env: { INGEST_KAFKA_SEND_TIMEOUT_MS: '1000' } });
    try {
      expect((await h.defineGroupKey('company')).status).toBe(201);
      gate.close();
      const unavailable = { error: 'profile broker unavailable: no acknowledgement within 1 s', status: 0 };
      const engage = await h.send(
        'engage',
        [{ $token: h.project.token, $distinct_id: 'stalled', $set: { a: 1 } }],
        'verbose=1',
      );
      expect(engage).toEqual({ status: 503, text: JSON.stringify(unavailable) });
      const groups = await h.send(
        'groups',
        [{ $token: h.project.token, $group_key: 'company', $group_id: 'acme', $set: { a: 1 } }],
        'verbose=1',
      );
      expect(groups).toEqual({ status: 503, text: JSON.stringify(unavailable) });
      expect(await h.send('engage', [{ $token: h.project.token, $distinct_id: 'stalled', $set: { a: 2 } }])).toEqual({
        status: 503,
        text: '0',
      });
    } finally {
      gate.open();
      await h.close();
      gate.restore();
    }
  });
});

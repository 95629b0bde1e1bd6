import { ClickHouseClient } from '@analytics/clickhouse';
import { groupId, Kafka, topicName } from '@analytics/kafka';
import { eventually } from '@analytics/testing';
import { Consumer } from 'kafkajs';
import { bearer, ComplianceHarness, event } from './compliance-harness';

const DELETIONS = '/api/app/data-deletions/v3.0';

/**
 * A deletion while the writer lags behind Kafka: the gateway acknowledged events (they are in the
 * topic, not yet in ClickHouse) before the request. The job waits in STAGING until the writer group
 * committed past them, then deletes them too. The test plays the late writer: it consumes the topic
 * in the writers' group, inserts the rows and commits, as EventWriter does.
 */
describe('a deletion while the events writer lags behind Kafka', () => {
  let h: ComplianceHarness;
  let consumer: Consumer | undefined;

  beforeAll(async () => {
    h = await ComplianceHarness.start({ startAfterSeconds: 0 }, { kafka: true, services: ['ingest', 'management'] });
  });
  afterAll(async () => {
    await consumer?.disconnect();
    await h?.close();
  });

  it('waits for the writer, then removes the in-flight events of the ids and keeps the others', async () => {
    const project = await h.project();
    const owner = await h.oauthToken(h.organizationId, 'owner');
    await h.import(project, [event('lagging', 'l1'), event('lagging', 'l2', {}, 'Bought'), event('other', 'o1')]);
    expect(await h.eventIds(project, ['lagging', 'other'])).toEqual([]);

    const created = await h.call('POST', `${DELETIONS}?token=${project.token}`, {
      authorization: bearer(owner),
      body: { distinct_ids: ['lagging'] },
    });
    expect(created.status).toBe(201);
    const id = created.body.results.task_id as string;
    const status = async () =>
      (await h.call('GET', `${DELETIONS}/${id}?token=${project.token}`, { authorization: bearer(owner) })).body.results
        .status;
    await eventually(async () => expect(await status()).toBe('STAGING'), { timeoutMs: 20_000 });

    // The writer catches up: rows inserted, then offsets committed.
    const settings = h.environment.config.kafka!;
    const clickhouse = h.app.app.get(ClickHouseClient);
    consumer = h.app.app.get(Kafka).consumer({ groupId: groupId(settings, 'eventsWriter') });
    await consumer.connect();
    await consumer.subscribe({ topic: topicName(settings, 'events'), fromBeginning: true });
    await consumer.run({
      autoCommit: false,
      eachMessage: async ({ topic, partition, message }) => {
        const rows = message
          .value!.toString()
          .split('\n')
          .filter(Boolean)
          .map((line) => JSON.parse(line));
        await clickhouse.insert({ table: 'events', values: rows, format: 'JSONEachRow' });
        await consumer!.commitOffsets([{ topic, partition, offset: String(Number(message.offset) + 1) }]);
      },
    });

    await eventually(async () => expect(await status()).toBe('SUCCESS'), { timeoutMs: 60_000, intervalMs: 250 });
    expect(await h.eventIds(project, ['lagging'])).toEqual([]);
    expect(await h.eventIds(project, ['other'])).toEqual(['o1']);
  }, 120_000);
});

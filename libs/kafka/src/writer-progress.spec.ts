import { AppConfig } from '@analytics/config';
import { KafkaOffsetsAdmin, WriterProgress } from './writer-progress';

const config = { kafka: { topicPrefix: 't.' } } as unknown as AppConfig;

/** A broker's answers: end offsets per topic, committed offsets per group. */
function broker(high: Record<string, number[]>, committed: Record<string, number[]>) {
  const admin: KafkaOffsetsAdmin = {
    connect: async () => undefined,
    disconnect: async () => undefined,
    fetchTopicOffsets: async (topic) =>
      (high[topic] ?? []).map((h, partition) => ({ partition, high: String(h), low: '0' })),
    fetchOffsets: async ({ groupId, topics }) => [
      {
        topic: topics[0],
        partitions: (committed[groupId] ?? []).map((o, partition) => ({ partition, offset: String(o) })),
      },
    ],
  };
  return { admin: () => admin };
}

describe('WriterProgress', () => {
  it('has nothing to wait for without a broker', async () => {
    const progress = new WriterProgress({ kafka: undefined } as unknown as AppConfig);
    expect(await progress.produced()).toBeUndefined();
    await progress.waitFor(undefined, { timeoutMs: 0 });
  });

  it('names the partitions whose writer has not committed past what was produced', async () => {
    const kafka = broker(
      { 't.events': [5, 0, 3], 't.profiles': [2], 't.identities': [1] },
      { 't.events-writer': [5, -1, 1], 't.profiles-writer': [-1], 't.identities-writer': [0] },
    );
    const progress = new WriterProgress(config, kafka as never);
    const marks = (await progress.produced())!;
    expect(marks).toEqual([
      {
        topic: 't.events',
        group: 't.events-writer',
        partitions: [
          { partition: 0, offset: 5 },
          { partition: 1, offset: 0 },
          { partition: 2, offset: 3 },
        ],
      },
      { topic: 't.profiles', group: 't.profiles-writer', partitions: [{ partition: 0, offset: 2 }] },
      { topic: 't.identities', group: 't.identities-writer', partitions: [{ partition: 0, offset: 1 }] },
    ]);
    expect(await progress.behind(marks)).toEqual([
      't.events[2] at 1 of 3',
      't.profiles[0] at 0 of 2',
      't.identities[0] at 0 of 1',
    ]);
    await expect(progress.waitFor(marks, { timeoutMs: 0 })).rejects.toThrow(
      /have not stored.*t\.events\[2\] at 1 of 3/,
    );
  });

  it('returns once the writers caught up, whatever was produced since', async () => {
    const committed = { 't.events-writer': [1], 't.profiles-writer': [0] };
    const progress = new WriterProgress(config, broker({ 't.events': [4], 't.profiles': [0] }, committed) as never);
    const marks = (await progress.produced())!;
    setTimeout(() => (committed['t.events-writer'] = [9]), 30);
    await progress.waitFor(marks, { timeoutMs: 5000, intervalMs: 10 });
    expect(await progress.behind(marks)).toEqual([]);
  });

  it('asks again when the broker answers with an error (a group coordinator moving)', async () => {
    const kafka = broker({ 't.events': [4], 't.profiles': [0] }, { 't.events-writer': [4] });
    const admin = kafka.admin();
    const fetch = admin.fetchOffsets;
    let failures = 2;
    admin.fetchOffsets = async (options) =>
      failures-- > 0 ? Promise.reject(new Error('This is not the correct coordinator for this group')) : fetch(options);
    const progress = new WriterProgress(config, { admin: () => admin } as never);
    await progress.waitFor((await progress.produced())!, { timeoutMs: 5000, intervalMs: 10 });
    expect(failures).toBeLessThan(0);
  });
});

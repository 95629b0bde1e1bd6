import { PartitionMetadata, Partitioners } from 'kafkajs';
import { PartitionPublisher, PublisherFullError } from './partition-publisher';
import { MAX_SEND_BYTES, MAX_SHARED_SEND_BYTES, PartitionedMessage } from './publish-parts';
import { PublishingClient, PublishingProducer } from './publishing-client';

/** A producer whose sends wait until the test settles them. */
class FakeProducer implements PublishingProducer {
  readonly sends: {
    record: { messages: PartitionedMessage[] };
    settled: boolean;
    resolve(): void;
    reject(error: Error): void;
  }[] = [];
  disconnected = false;
  connect = async () => undefined;
  disconnect = async () => void (this.disconnected = true);
  send = (messages: PartitionedMessage[]) =>
    new Promise<void>((resolve, reject) => {
      const send = {
        record: { messages },
        settled: false,
        resolve: () => ((send.settled = true), resolve()),
        reject: (error: Error) => ((send.settled = true), reject(error)),
      };
      this.sends.push(send);
    });
}

function fakeClient(partitions: number) {
  const producers: FakeProducer[] = [];
  const client: PublishingClient = {
    producer: () => {
      const producer = new FakeProducer();
      producers.push(producer);
      return producer;
    },
    partitionCount: async () => partitions,
  };
  return { client, producers };
}

const flush = () => new Promise((resolve) => setImmediate(resolve));
/** Acknowledges every send until nothing is left to send. */
async function settleAll(producers: FakeProducer[]): Promise<void> {
  for (
    let open = producers.flatMap((p) => p.sends.filter((s) => !s.settled));
    open.length;
    open = producers.flatMap((p) => p.sends.filter((s) => !s.settled))
  ) {
    open.forEach((s) => s.resolve());
    await flush();
  }
}
const message = (partition: number, value = 'row\n') => ({ partition, value });
const partitionsOf = (messages: PartitionedMessage[]) => messages.map((m) => m.partition);
/** What happened to a promise so far. */
function watch(promise: Promise<void>) {
  const state: { outcome?: 'resolved' | 'rejected'; error?: Error } = {};
  promise.then(
    () => (state.outcome = 'resolved'),
    (error: Error) => Object.assign(state, { outcome: 'rejected', error }),
  );
  return state;
}

describe('PartitionPublisher, every partition sent alone', () => {
  let publisher: PartitionPublisher | undefined;
  afterEach(() => jest.useRealTimers());

  async function start(
    options: { partitions?: number; maxPendingBytes?: number; sendTimeoutMs?: number; shareSends?: boolean } = {},
  ) {
    const { client, producers } = fakeClient(options.partitions ?? 4);
    publisher = new PartitionPublisher(client, {
      topic: 't',
      sendTimeoutMs: options.sendTimeoutMs ?? 60_000,
      maxPendingBytes: options.maxPendingBytes ?? 10_000_000,
      producers: 1,
      shareSends: options.shareSends ?? false,
    });
    await publisher.connect();
    return { publisher, producers };
  }

  it('sends each partition on its own, so a failing partition fails only the callers whose messages were in that send', async () => {
    const { publisher, producers } = await start();
    const both = watch(publisher.publish([message(0), message(1)]));
    const onlyZero = watch(publisher.publish([message(0)]));
    const onlyOne = watch(publisher.publish([message(1)]));
    await flush();
    expect(producers[0].sends.map((s) => partitionsOf(s.record.messages))).toEqual([[0], [1]]);
    producers[0].sends[1].reject(new Error('NOT_ENOUGH_REPLICAS on partition 1'));
    producers[0].sends[0].resolve();
    await flush();
    expect(both).toMatchObject({ outcome: 'rejected', error: { message: 'NOT_ENOUGH_REPLICAS on partition 1' } });
    await settleAll(producers);
    expect([onlyZero.outcome, onlyOne.outcome]).toEqual(['resolved', 'resolved']);
  });

  it('keeps one send in flight per partition and gathers what waits meanwhile into the next, within a record batch', async () => {
    const { publisher, producers } = await start();
    const first = watch(publisher.publish([message(2)]));
    const big = 'x'.repeat(MAX_SEND_BYTES / 2);
    const waiting = [
      publisher.publish([message(2, big)]),
      publisher.publish([message(2, big)]),
      publisher.publish([message(2)]),
    ].map(watch);
    await flush();
    const [producer] = producers;
    expect(producer.sends).toHaveLength(1);
    producer.sends[0].resolve();
    await flush();
    expect(first.outcome).toBe('resolved');
    // Two halves of a batch do not fit one send with their framing: the second waits for the next one.
    expect(producer.sends.map((s) => s.record.messages.length)).toEqual([1, 1]);
    producer.sends[1].resolve();
    await flush();
    expect(producer.sends.map((s) => s.record.messages.length)).toEqual([1, 1, 2]);
    producer.sends[2].resolve();
    await flush();
    expect(waiting.map((w) => w.outcome)).toEqual(['resolved', 'resolved', 'resolved']);
  });

  it('sends a partition again with a new producer after a failure, and disconnects the old one once it is idle', async () => {
    const { publisher, producers } = await start();
    const failed = watch(publisher.publish([message(0)]));
    const other = watch(publisher.publish([message(1)]));
    await flush();
    producers[0].sends[0].reject(new Error('Request timed out'));
    await flush();
    expect(failed.outcome).toBe('rejected');
    // The producer's sequence for partition 0 is untrusted (the broker may hold the batch): never reuse it there.
    const next = watch(publisher.publish([message(0)]));
    await flush();
    expect(producers).toHaveLength(2);
    expect(producers[1].sends.map((s) => partitionsOf(s.record.messages))).toEqual([[0]]);
    expect(producers[0].disconnected).toBe(false);
    producers[0].sends[1].resolve();
    producers[1].sends[0].resolve();
    await flush();
    expect([other.outcome, next.outcome]).toEqual(['resolved', 'resolved']);
    expect(producers[0].disconnected).toBe(true);
  });

  it('answers a caller at its deadline and withdraws its messages still queued', async () => {
    jest.useFakeTimers();
    const { publisher, producers } = await start({ sendTimeoutMs: 1_000 });
    const hanging = watch(publisher.publish([message(0)]));
    const queued = watch(publisher.publish([message(0), message(1)]));
    await jest.advanceTimersByTimeAsync(0);
    producers[0].sends.find((s) => s.record.messages[0].partition === 1)!.reject(new Error('leader moved'));
    await jest.advanceTimersByTimeAsync(0);
    expect(queued).toMatchObject({ outcome: 'rejected', error: { message: 'leader moved' } });
    await jest.advanceTimersByTimeAsync(1_000);
    expect(hanging).toMatchObject({ outcome: 'rejected', error: { message: 'no acknowledgement within 1 s' } });
    // The queued message of partition 0 was withdrawn: nothing else went out for it.
    expect(producers.flatMap((p) => p.sends).filter((s) => s.record.messages[0].partition === 0)).toHaveLength(1);
  });

  it("keeps a message's bytes while a send still holds them after its caller's deadline, and sends every value as its UTF-8 bytes", async () => {
    jest.useFakeTimers();
    const { publisher, producers } = await start({ sendTimeoutMs: 1_000 });
    const hanging = watch(publisher.publish([message(0, 'first é€\n')]));
    await jest.advanceTimersByTimeAsync(1_000);
    expect(hanging.outcome).toBe('rejected');
    // The client may still write the hanging send; what others publish meanwhile must not overwrite it.
    const later = Array.from({ length: 50 }, (_, i) =>
      watch(publisher.publish([message(1 + (i % 3), `later ${i} ${'y'.repeat(30_000)}\n`)])),
    );
    await jest.advanceTimersByTimeAsync(0);
    const sent = (partition: number) =>
      producers.flatMap((p) => p.sends).filter((s) => s.record.messages[0].partition === partition);
    expect(sent(0)[0].record.messages[0].value).toEqual(Buffer.from('first é€\n'));
    jest.useRealTimers();
    await settleAll(producers);
    expect(later.every((state) => state.outcome === 'resolved')).toBe(true);
    expect(
      [1, 2, 3].flatMap((partition) =>
        sent(partition).flatMap((s) => s.record.messages.map((m) => m.value.toString().split(' ')[1])),
      ),
    ).toHaveLength(50);
    expect(sent(0)[0].record.messages[0].value).toEqual(Buffer.from('first é€\n'));
    expect(publisher.pending).toBe(0);
  });

  it('refuses at once what would exceed the bytes waiting for the broker, and takes more once they are acknowledged', async () => {
    const { publisher, producers } = await start({ maxPendingBytes: 1_000 });
    const first = watch(publisher.publish([message(0, 'x'.repeat(600))]));
    await expect(publisher.publish([message(1, 'x'.repeat(600))])).rejects.toThrow(PublisherFullError);
    await flush();
    producers[0].sends[0].resolve();
    await flush();
    expect(first.outcome).toBe('resolved');
    expect(publisher.pending).toBe(0);
    const second = watch(publisher.publish([message(1, 'x'.repeat(600))]));
    await flush();
    producers[0].sends[1].resolve();
    await flush();
    expect(second.outcome).toBe('resolved');
  });

  it('gives a key the partition kafkajs gives it, whatever the leaders', async () => {
    const { publisher } = await start({ partitions: 12 });
    const kafkajs = Partitioners.DefaultPartitioner();
    const partitionMetadata = Array.from({ length: 12 }, (_, partitionId) => ({
      partitionId,
      leader: partitionId % 3 === 0 ? -1 : 1,
    })) as PartitionMetadata[];
    const keys = Array.from({ length: 200 }, (_, i) => `1:0::user-${i}`);
    expect(keys.map((key) => publisher.partitionOfKey(key))).toEqual(
      keys.map((key) => kafkajs({ topic: 't', partitionMetadata, message: { key, value: null } })),
    );
    expect(new Set(keys.map((key) => publisher.partitionOfKey(key))).size).toBe(12);
  });
});

describe('PartitionPublisher with shared sends', () => {
  afterEach(() => jest.useRealTimers());

  async function start(sendTimeoutMs = 60_000, partitions = 4) {
    const { client, producers } = fakeClient(partitions);
    const publisher = new PartitionPublisher(client, {
      topic: 't',
      sendTimeoutMs,
      maxPendingBytes: 10_000_000,
      producers: 1,
      shareSends: true,
    });
    await publisher.connect();
    // Created in order: the producer for partitions sent alone, then the shared one.
    return { publisher, producers };
  }

  it('sends what waits for every partition in one send while all goes well', async () => {
    const { publisher, producers } = await start();
    const shared = () => producers[1];
    const first = watch(publisher.publish([message(0)]));
    const others = [
      publisher.publish([message(1), message(2)]),
      publisher.publish([message(3)]),
      publisher.publish([message(0)]),
    ].map(watch);
    await flush();
    expect(shared().sends.map((s) => partitionsOf(s.record.messages))).toEqual([[0]]);
    shared().sends[0].resolve();
    await flush();
    expect(shared().sends.map((s) => partitionsOf(s.record.messages).sort())).toEqual([[0], [0, 1, 2, 3]]);
    shared().sends[1].resolve();
    await flush();
    expect([first, ...others].map((w) => w.outcome)).toEqual(['resolved', 'resolved', 'resolved', 'resolved']);
  });

  it("splits a failed shared send into one send per partition: only the failing partition's callers fail, and it is sent alone until it recovers", async () => {
    const { publisher, producers } = await start();
    const [alone, shared] = producers;
    const first = watch(publisher.publish([message(0)]));
    await flush();
    shared.sends[0].resolve();
    const healthy = watch(publisher.publish([message(0)]));
    const sick = watch(publisher.publish([message(1)]));
    const both = watch(publisher.publish([message(0), message(1)]));
    await flush();
    expect(partitionsOf(shared.sends[1].record.messages).sort()).toEqual([0, 0, 1, 1]);
    shared.sends[1].reject(new Error('Connection error: connect ECONNREFUSED 127.0.0.1:9093'));
    await flush();
    expect(alone.sends.map((s) => partitionsOf(s.record.messages)).sort()).toEqual([
      [0, 0],
      [1, 1],
    ]);
    const aloneSendOf = (partition: number) => alone.sends.find((s) => s.record.messages[0].partition === partition)!;
    aloneSendOf(0).resolve();
    aloneSendOf(1).reject(new Error('Connection error: connect ECONNREFUSED 127.0.0.1:9093'));
    await flush();
    expect([first.outcome, healthy.outcome, sick.outcome, both.outcome]).toEqual([
      'resolved',
      'resolved',
      'rejected',
      'rejected',
    ]);

    // The troubled partition goes alone, the others share sends again: each on a new producer.
    const later = [publisher.publish([message(1)]), publisher.publish([message(2)])].map(watch);
    await flush();
    const sendsOf = (partition: number) =>
      producers.filter((p) => p.sends.some((s) => !s.settled && s.record.messages[0].partition === partition));
    expect(sendsOf(1)).toHaveLength(1);
    expect(sendsOf(2)).toHaveLength(1);
    expect([alone, shared]).not.toContain(sendsOf(1)[0]);
    expect([alone, shared]).not.toContain(sendsOf(2)[0]);
    expect(sendsOf(1)[0]).not.toBe(sendsOf(2)[0]);
    await settleAll(producers);
    expect(later.map((w) => w.outcome)).toEqual(['resolved', 'resolved']);
  });

  it('splits a shared send slower than its bound, so a stalled partition holds no other to its deadline', async () => {
    jest.useFakeTimers();
    const { publisher, producers } = await start(20_000);
    const [alone, shared] = producers;
    const first = watch(publisher.publish([message(1)]));
    await jest.advanceTimersByTimeAsync(0);
    const [zero, two, three] = [0, 2, 3].map((partition) => watch(publisher.publish([message(partition)])));
    shared.sends[0].resolve();
    await jest.advanceTimersByTimeAsync(0);
    expect(first.outcome).toBe('resolved');
    expect(partitionsOf(shared.sends[1].record.messages).sort()).toEqual([0, 2, 3]);
    // Partition 3 stalls the shared send: after 2 s each partition goes alone.
    await jest.advanceTimersByTimeAsync(2_000);
    expect(alone.sends.map((s) => partitionsOf(s.record.messages)).sort()).toEqual([[0], [2], [3]]);
    alone.sends.filter((s) => s.record.messages[0].partition !== 3).forEach((s) => s.resolve());
    await jest.advanceTimersByTimeAsync(0);
    expect([zero.outcome, two.outcome, three.outcome]).toEqual(['resolved', 'resolved', undefined]);
    await jest.advanceTimersByTimeAsync(18_000);
    expect(three).toMatchObject({ outcome: 'rejected', error: { message: 'no acknowledgement within 20 s' } });
  });

  it('keeps a shared send under its byte cap, and the partitions left out go first in the next', async () => {
    const { publisher, producers } = await start(60_000, 8);
    const shared = () => producers[1];
    const first = watch(publisher.publish([message(0)]));
    await flush();
    // 8 partitions × 2 × 400 KB wait: 6.4 MB, more than one shared send takes.
    const big = 'x'.repeat(400_000);
    const waiting = [0, 1, 2, 3, 4, 5, 6, 7].map((partition) =>
      watch(publisher.publish([message(partition, big), message(partition, big)])),
    );
    await settleAll(producers);
    const sends = shared().sends.map((s) => s.record.messages);
    expect(sends.map((messages) => [...new Set(partitionsOf(messages))])).toEqual([[0], [1, 2, 3, 4, 5], [6, 7, 0]]);
    for (const messages of sends)
      expect(messages.reduce((sum, m) => sum + m.value.length, 0)).toBeLessThanOrEqual(MAX_SHARED_SEND_BYTES);
    expect([first, ...waiting].every((w) => w.outcome === 'resolved')).toBe(true);
  });
});

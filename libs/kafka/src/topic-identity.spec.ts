import { BatchPart } from './batch-part';
import { cachedIdentities } from './topic-identity';

/** A part of `events` partition `partition` holding offsets `first`..`last`. */
const part = (partition: number, first: number, last: number): BatchPart => ({
  topic: 'events',
  partition,
  records: Array.from({ length: last - first + 1 }, (_, i) => ({
    offset: String(first + i),
    value: Buffer.from('{}'),
    rows: 1,
  })),
  lastOffset: String(last),
  rows: last - first + 1,
});

describe('the topic identities a writer names its insert tokens with', () => {
  let broker: string;
  let asked: number;
  let identityOf: ReturnType<typeof cachedIdentities>;

  beforeEach(() => {
    broker = 'cluster/old-topic';
    asked = 0;
    identityOf = cachedIdentities(async () => {
      asked += 1;
      return broker;
    });
  });

  it('ask the broker once while every partition reads on where its last batch ended', async () => {
    await identityOf('events', [part(0, 0, 9), part(1, 0, 4)]);
    await identityOf('events', [part(0, 10, 19)]);
    await identityOf('events', [part(0, 20, 29), part(1, 5, 9)]);

    expect(asked).toBe(1);
  });

  it('ask once when a batch holds two fetches of one partition back to back', async () => {
    await identityOf('events', [part(0, 0, 9)]);
    await identityOf('events', [part(0, 10, 19), part(0, 20, 29)]);
    await identityOf('events', [part(0, 30, 39), part(0, 40, 49)]);

    expect(asked).toBe(1);
  });

  it("ask again when a batch's second fetch of a partition leaves a gap", async () => {
    await identityOf('events', [part(0, 0, 9)]);
    await identityOf('events', [part(0, 10, 19), part(0, 30, 39)]);

    expect(asked).toBe(2);
  });

  it('ask again when a partition goes back (a topic made anew counts from 0 again)', async () => {
    await identityOf('events', [part(0, 0, 9)]);
    broker = 'cluster/new-topic';

    await expect(identityOf('events', [part(0, 0, 4)])).resolves.toBe('cluster/new-topic');
  });

  it('ask again for a partition this writer has not read yet, which a rebalance may hand over from a topic made anew', async () => {
    await identityOf('events', [part(0, 0, 9)]);
    broker = 'cluster/new-topic';

    await expect(identityOf('events', [part(2, 0, 4)])).resolves.toBe('cluster/new-topic');
  });

  it('ask again for a partition that comes back further on, after another writer read it', async () => {
    await identityOf('events', [part(0, 0, 9)]);
    broker = 'cluster/new-topic';

    await expect(identityOf('events', [part(0, 20, 29)])).resolves.toBe('cluster/new-topic');
  });
});

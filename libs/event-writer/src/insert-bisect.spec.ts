import { attemptWithRetries, BatchPart } from '@analytics/kafka';
import { ConsumedMessage, dedupToken, messagesOf } from './dedup-token';
import { insertBisecting } from './insert-bisect';

/** The events topic as the cluster names it now. */
const identities = new Map([['events', 'A']]);

const part = (topic: string, partition: number, offsets: number[]): BatchPart => ({
  topic,
  partition,
  records: offsets.map((offset) => ({
    offset: String(offset),
    value: Buffer.from(`${topic}/${partition}/${offset}\n`),
    rows: 1,
  })),
  lastOffset: String(offsets[offsets.length - 1] + 1),
  rows: offsets.length,
});

/** ClickHouse as the writer sees it: refuses a block holding a poison row, drops a block whose token it has seen. */
class FakeClickHouse {
  readonly rows: string[] = [];
  readonly tokens: string[] = [];
  private readonly seen = new Set<string>();
  private passingFailures = 0;

  constructor(private readonly poison: Set<string>) {}

  failNext(times: number): void {
    this.passingFailures = times;
  }

  async insert(messages: ConsumedMessage[]): Promise<void> {
    const token = dedupToken(messages, identities);
    this.tokens.push(token);
    const lines = messages.map((m) => m.record.value.toString().trim());
    if (lines.some((line) => this.poison.has(line)))
      throw Object.assign(new Error('Cannot parse input'), { code: '27' });
    if (this.passingFailures-- > 0) {
      // The insert landed but its answer was lost: the retry must be dropped as a repeat.
      this.store(token, lines);
      throw Object.assign(new Error('Timeout error.'), { code: 'ETIMEDOUT' });
    }
    this.store(token, lines);
  }

  private store(token: string, lines: string[]): void {
    if (this.seen.has(token)) return;
    this.seen.add(token);
    this.rows.push(...lines);
  }
}

const attempt = (clickhouse: FakeClickHouse) => (messages: ConsumedMessage[]) =>
  attemptWithRetries(() => clickhouse.insert(messages), {
    classify: (error) => ((error as { code?: string }).code === '27' ? 'dead-letter' : 'retry'),
    stopping: () => false,
    onRetry: () => undefined,
  });

describe('dedupToken', () => {
  it('names the offset ranges of the messages, partition by partition, whatever order the partitions arrived in', () => {
    const messages = messagesOf([part('events', 2, [7, 8]), part('events', 0, [100, 101, 103])]);
    expect(dedupToken(messages, identities)).toBe('events@A:0:100-103,events@A:2:7-8');
    expect(dedupToken(messagesOf([part('events', 0, [100, 101, 103]), part('events', 2, [7, 8])]), identities)).toBe(
      dedupToken(messages, identities),
    );
    expect(dedupToken(messages.slice(1, 4), identities)).toBe('events@A:0:101-103,events@A:2:7-7');
  });

  it('differs for the same offsets of a topic created anew (or on a wiped broker): the identity is part of it', () => {
    const messages = messagesOf([part('events', 0, [0, 1])]);
    expect(dedupToken(messages, new Map([['events', 'cluster-1/topic-1']]))).toBe('events@cluster-1/topic-1:0:0-1');
    expect(dedupToken(messages, new Map([['events', 'cluster-1/topic-2']]))).not.toBe(
      dedupToken(messages, new Map([['events', 'cluster-1/topic-1']])),
    );
    expect(() => dedupToken(messages, new Map())).toThrow('no identity for topic events');
  });
});

describe('insertBisecting', () => {
  it('stores a clean batch in one insert', async () => {
    const clickhouse = new FakeClickHouse(new Set());
    const messages = messagesOf([part('events', 0, [1, 2, 3])]);
    expect(await insertBisecting(messages, attempt(clickhouse))).toEqual([]);
    expect(clickhouse.tokens).toEqual(['events@A:0:1-3']);
  });

  it('finds the one message ClickHouse refuses, in about 2·log2(n) inserts, and stores every other', async () => {
    const clickhouse = new FakeClickHouse(new Set(['events/1/13']));
    const messages = messagesOf([
      part('events', 0, [0, 1, 2, 3, 4, 5, 6, 7]),
      part('events', 1, [10, 11, 12, 13, 14, 15, 16, 17]),
    ]);
    const refused = await insertBisecting(messages, attempt(clickhouse));
    expect(refused.map((r) => [r.item.partition, r.item.record.offset, r.reason])).toEqual([
      [1, '13', 'Cannot parse input'],
    ]);
    expect(clickhouse.rows.sort()).toEqual(
      messages
        .map((m) => m.record.value.toString().trim())
        .filter((line) => line !== 'events/1/13')
        .sort(),
    );
    expect(clickhouse.tokens).toEqual([
      'events@A:0:0-7,events@A:1:10-17',
      'events@A:0:0-7',
      'events@A:1:10-17',
      'events@A:1:10-13',
      'events@A:1:10-11',
      'events@A:1:12-13',
      'events@A:1:12-12',
      'events@A:1:13-13',
      'events@A:1:14-17',
    ]);
  });

  it('retries a passing failure of a half with the same token, so a lost answer stores it once', async () => {
    const clickhouse = new FakeClickHouse(new Set(['events/0/2']));
    const messages = messagesOf([part('events', 0, [0, 1, 2, 3])]);
    clickhouse.failNext(2);
    // The whole batch is refused (poison); its first half lands twice without an answer, then again.
    const refused = await insertBisecting(messages, attempt(clickhouse));
    expect(refused.map((r) => r.item.record.offset)).toEqual(['2']);
    expect(clickhouse.tokens.slice(0, 4)).toEqual([
      'events@A:0:0-3',
      'events@A:0:0-1',
      'events@A:0:0-1',
      'events@A:0:0-1',
    ]);
    expect(clickhouse.rows.sort()).toEqual(['events/0/0', 'events/0/1', 'events/0/3']);
  });
});

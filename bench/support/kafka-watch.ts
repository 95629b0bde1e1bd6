import { partitionFor } from '@analytics/events';
import { Admin } from 'kafkajs';

/**
 * What the writer group has committed, read with the Kafka admin API. The writer commits a batch's
 * offsets only after ClickHouse confirmed its insert (synchronous insert), so a committed offset
 * means every row before it is visible to queries.
 */
export class GroupWatch {
  constructor(
    private readonly admin: Admin,
    private readonly topic: string,
    private readonly group: string,
  ) {}

  async committed(): Promise<Map<number, bigint>> {
    const [topic] = await this.admin.fetchOffsets({ groupId: this.group, topics: [this.topic] });
    return new Map(topic.partitions.map((p) => [p.partition, BigInt(p.offset)]));
  }

  async ends(): Promise<Map<number, bigint>> {
    return new Map((await this.admin.fetchTopicOffsets(this.topic)).map((p) => [p.partition, BigInt(p.high)]));
  }

  /** Messages produced but not yet committed by the group. */
  async lag(): Promise<number> {
    const [ends, committed] = await Promise.all([this.ends(), this.committed()]);
    let lag = 0n;
    for (const [partition, end] of ends) {
      const at = committed.get(partition) ?? -1n;
      lag += end - (at < 0n ? 0n : at);
    }
    return Number(lag);
  }

  /** Polls until nothing is left to write; resolves with the moment it saw that (ms epoch). */
  async drained(timeoutMs: number, intervalMs = 50): Promise<number> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      if ((await this.lag()) === 0) return Date.now();
      if (Date.now() > deadline) throw new Error(`the group ${this.group} still lags after ${timeoutMs} ms`);
      await new Promise((resolve) => setTimeout(resolve, intervalMs));
    }
  }
}

interface Waiting {
  partition: number;
  /** The partition's end offset read right after the ack: the marker lies below it. */
  end: bigint;
  ackedAt: number;
}

/**
 * Freshness by sampling: a one-event marker request is imported every `intervalMs`; once the gateway
 * acknowledged it, we read its partition's end offset and poll the writer group's committed offsets
 * until they pass it. Ack → committed is an upper bound of ack → visible in a query (the commit
 * follows the insert; the end offset read after the ack may also cover later messages), coarse by
 * the poll interval.
 */
export class FreshnessProbe {
  readonly samples: number[] = [];
  private waiting: Waiting[] = [];
  private running = false;
  private loops: Promise<void>[] = [];
  failures = 0;

  constructor(
    private readonly watch: GroupWatch,
    private readonly gatewayUrl: string,
    private readonly authorization: string,
    private readonly projectId: number,
    private readonly partitions: number,
    private readonly run: string,
  ) {}

  start(intervalMs: number, pollMs: number): void {
    this.running = true;
    this.loops = [this.sendLoop(intervalMs), this.pollLoop(pollMs)];
  }

  /** Stops sending markers and waits (bounded) for those in flight to be committed. */
  async stop(timeoutMs = 30_000): Promise<void> {
    this.running = false;
    await this.loops[0];
    const deadline = Date.now() + timeoutMs;
    while (this.waiting.length && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
    this.waiting = [];
    await this.loops[1];
    this.loops = [];
  }

  private async sendLoop(intervalMs: number): Promise<void> {
    for (let k = 0; this.running; k++) {
      const distinctId = `marker-${k % 1000}`;
      const insertId = `m${this.run}${k}`;
      try {
        const response = await fetch(`${this.gatewayUrl}/import?strict=1`, {
          method: 'POST',
          body: JSON.stringify([
            { event: 'Bench marker', properties: { time: Date.now(), distinct_id: distinctId, $insert_id: insertId } },
          ]),
          headers: { Authorization: this.authorization, 'Content-Type': 'application/json' },
        });
        await response.arrayBuffer();
        if (response.status !== 200) throw new Error(`marker answered ${response.status}`);
        const ackedAt = Date.now();
        const partition = partitionFor(this.projectId, distinctId, this.partitions);
        const end = (await this.watch.ends()).get(partition)!;
        this.waiting.push({ partition, end, ackedAt });
      } catch {
        this.failures++;
      }
      await new Promise((resolve) => setTimeout(resolve, intervalMs));
    }
  }

  private async pollLoop(pollMs: number): Promise<void> {
    while (this.running || this.waiting.length) {
      if (this.waiting.length) {
        try {
          const committed = await this.watch.committed();
          const now = Date.now();
          this.waiting = this.waiting.filter((w) => {
            const done = (committed.get(w.partition) ?? -1n) >= w.end;
            if (done) this.samples.push(now - w.ackedAt);
            return !done;
          });
        } catch {
          // the next poll retries
        }
      }
      await new Promise((resolve) => setTimeout(resolve, pollMs));
    }
  }
}

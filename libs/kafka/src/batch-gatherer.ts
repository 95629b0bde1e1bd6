import { BatchPart } from './batch-part';

export interface GatherOptions {
  flushIntervalMs: number;
  maxRows: number;
  /** Bytes of message values; with it, a batch's memory does not follow the size of the events. */
  maxBytes?: number;
}

/** Writes one gathered batch and settles its parts itself (retry, rewind); a throw reaches `onError`. */
export type FlushParts = (parts: BatchPart[]) => Promise<void>;

const bytesOf = (part: BatchPart) => part.records.reduce((sum, record) => sum + record.value.length, 0);

/**
 * Gathers the batches that Kafka hands over per partition into one write: ClickHouse wants
 * thousands of rows per insert and about one insert per second per table, Postgres one transaction
 * rather than many. Flushes by size or time, one flush at a time, in order. While a flush runs, the
 * next batch gathers: `add` resolves at once while what waits is under the bounds, so the consumer
 * fetches on during a write; past a bound it resolves when a flush has taken the parts, so at most
 * one batch is being written and one gathered.
 */
export class BatchGatherer {
  private waiting: BatchPart[] = [];
  private rows = 0;
  private bytes = 0;
  private blocked: (() => void)[] = [];
  private timer: NodeJS.Timeout | undefined;
  /** A flush is queued behind the running one; it takes whatever waits when it starts. */
  private queued = false;
  private flushing: Promise<void> = Promise.resolve();

  constructor(
    private readonly flush: FlushParts,
    private readonly options: GatherOptions,
    private readonly onError: (error: unknown, parts: BatchPart[]) => void,
  ) {}

  add(part: BatchPart): Promise<void> {
    this.waiting.push(part);
    this.rows += part.rows;
    this.bytes += bytesOf(part);
    if (this.rows >= this.options.maxRows || this.bytes >= (this.options.maxBytes ?? Infinity)) {
      this.request();
      return new Promise<void>((resolve) => this.blocked.push(resolve));
    }
    this.timer ??= setTimeout(() => this.request(), this.options.flushIntervalMs);
    return Promise.resolve();
  }

  /** Flushes what is waiting now (also used at shutdown); resolves when every flush so far is done. */
  flushNow(): Promise<void> {
    this.request();
    return this.flushing;
  }

  private request(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.queued || !this.waiting.length) return;
    this.queued = true;
    this.flushing = this.flushing.then(() => this.flushWaiting());
  }

  private async flushWaiting(): Promise<void> {
    this.queued = false;
    clearTimeout(this.timer);
    this.timer = undefined;
    const parts = this.waiting.splice(0);
    this.rows = 0;
    this.bytes = 0;
    this.blocked.splice(0).forEach((resolve) => resolve());
    try {
      await this.flush(parts);
    } catch (error) {
      this.onError(error, parts);
    }
  }
}

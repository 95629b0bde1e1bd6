export interface BatchRecord {
  offset: string;
  /** JSONEachRow lines of the events table. */
  value: Buffer;
  rows: number;
}

export interface BatchPart {
  topic: string;
  partition: number;
  records: BatchRecord[];
  lastOffset: string;
  rows: number;
}

interface Waiting {
  part: BatchPart;
  resolve(): void;
  reject(error: unknown): void;
}

export interface BatcherOptions {
  flushIntervalMs: number;
  maxRows: number;
}

/**
 * Gathers the batches that Kafka hands over per partition into one ClickHouse insert: ClickHouse
 * wants thousands of rows per insert and about one insert per second per table. Flushes by size or
 * time, one flush at a time; each caller's promise settles with the flush that carried its part.
 */
export class InsertBatcher {
  private waiting: Waiting[] = [];
  private rows = 0;
  private timer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> = Promise.resolve();

  constructor(
    private readonly flush: (parts: BatchPart[]) => Promise<void>,
    private readonly options: BatcherOptions,
  ) {}

  add(part: BatchPart): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.waiting.push({ part, resolve, reject });
      this.rows += part.rows;
      if (this.rows >= this.options.maxRows) this.flushNow();
      else this.timer ??= setTimeout(() => this.flushNow(), this.options.flushIntervalMs);
    });
  }

  /** Flushes what is waiting now (also used at shutdown and rebalance); resolves when done. */
  flushNow(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    const taken = this.waiting.splice(0);
    this.rows = 0;
    if (taken.length) this.flushing = this.flushing.then(() => this.flushTaken(taken));
    return this.flushing;
  }

  private async flushTaken(taken: Waiting[]): Promise<void> {
    try {
      await this.flush(taken.map((w) => w.part));
      taken.forEach((w) => w.resolve());
    } catch (error) {
      taken.forEach((w) => w.reject(error));
    }
  }
}

/** Identical for a retried batch of the same offsets, so ClickHouse drops the repeat. */
export function dedupToken(parts: BatchPart[]): string {
  return [...parts]
    .sort((a, b) => a.topic.localeCompare(b.topic) || a.partition - b.partition)
    .map((p) => `${p.topic}:${p.partition}:${p.records[0]?.offset}-${p.lastOffset}`)
    .join(',');
}

import { BatchPart } from './batch-part';

interface Waiting {
  part: BatchPart;
  resolve(): void;
  reject(error: unknown): void;
}

export interface GatherOptions {
  flushIntervalMs: number;
  maxRows: number;
}

/**
 * Gathers the batches that Kafka hands over per partition into one write: ClickHouse wants
 * thousands of rows per insert and about one insert per second per table, Postgres one transaction
 * rather than many. Flushes by size or time, one flush at a time; each caller's promise settles with
 * the flush that carried its part.
 */
export class BatchGatherer {
  private waiting: Waiting[] = [];
  private rows = 0;
  private timer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> = Promise.resolve();

  constructor(
    private readonly flush: (parts: BatchPart[]) => Promise<void>,
    private readonly options: GatherOptions,
  ) {}

  add(part: BatchPart): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.waiting.push({ part, resolve, reject });
      this.rows += part.rows;
      if (this.rows >= this.options.maxRows) void this.flushNow();
      else this.timer ??= setTimeout(() => void this.flushNow(), this.options.flushIntervalMs);
    });
  }

  /** Flushes what is waiting now (also used at shutdown); resolves when every flush so far is done. */
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

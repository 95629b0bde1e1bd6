interface Waiting<T, R> {
  items: T[];
  resolve(result: R): void;
  reject(error: unknown): void;
}

/**
 * Runs one batch at a time: what callers push while a batch runs is gathered into the next one,
 * so concurrent requests are applied together, in arrival order, and never interleave.
 * `run` gets each caller's items and returns each caller's result, in the same order.
 */
export class CoalescingQueue<T, R> {
  private waiting: Waiting<T, R>[] = [];
  private running = false;

  constructor(private readonly run: (batches: T[][]) => Promise<R[]>) {}

  push(items: T[]): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      this.waiting.push({ items, resolve, reject });
      void this.drain();
    });
  }

  private async drain(): Promise<void> {
    if (this.running) return;
    this.running = true;
    try {
      while (this.waiting.length) {
        const taken = this.waiting.splice(0);
        try {
          const results = await this.run(taken.map((w) => w.items));
          taken.forEach((w, i) => w.resolve(results[i]));
        } catch (error) {
          taken.forEach((w) => w.reject(error));
        }
      }
    } finally {
      this.running = false;
    }
  }
}

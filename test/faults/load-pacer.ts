import { eventBatch, RetryingImporter, TestEvent } from '../multi-process/pipeline-harness';

export interface PacedLoadOptions {
  importer: RetryingImporter;
  gateways: () => string[];
  runId: string;
  total: number;
  batchSize: number;
  clients: number;
  /** Upper bound on the send rate, so the flow spans the faults instead of ending before them. */
  eventsPerSecond: number;
  /** Events that may be sent before the first {@link PacedLoad.gate} call (default: all). */
  initialGate?: number;
  /** Builds the batch of events from..from+count-1 (default: {@link eventBatch}); the same on every call. */
  makeBatch?: (from: number, count: number, baseTimeMs: number) => TestEvent[];
}

/**
 * Several clients sending numbered batches at a bounded rate, and at most up to a gate the fault
 * driver opens step by step (so events keep arriving across every fault, not all before the first).
 */
export class PacedLoad {
  private next = 0;
  private end: number;
  private allowed: number;
  private waiters: (() => void)[] = [];
  private nextSlot = 0;
  private readonly baseTimeMs = Date.now();
  readonly done: Promise<void>;
  sentEvents = 0;

  constructor(private readonly options: PacedLoadOptions) {
    this.end = options.total;
    this.allowed = options.initialGate ?? options.total;
    this.done = Promise.all(Array.from({ length: options.clients }, (_, c) => this.client(c))).then(() => undefined);
  }

  /** Lets the load send only up to `events` until the gate is moved again. */
  gate(events: number): void {
    this.allowed = Math.min(events, this.options.total);
    this.waiters.splice(0).forEach((wake) => wake());
  }

  /**
   * Ends the load early, for a flow that lasts as long as the faults take rather than a set count:
   * the batches already handed to clients are still sent (`done` waits for them), no new one starts.
   * Returns how many events the load sends in all (events 0 to that count - 1).
   */
  stop(): number {
    this.end = Math.min(this.end, this.next);
    this.gate(this.end);
    return this.end;
  }

  get progress(): number {
    return this.sentEvents / this.options.total;
  }

  private async client(c: number): Promise<void> {
    const { batchSize, eventsPerSecond } = this.options;
    for (;;) {
      const from = this.next;
      if (from >= this.end) return;
      this.next += batchSize;
      const count = Math.min(batchSize, this.end - from);
      while (from + count > this.allowed) await new Promise<void>((wake) => this.waiters.push(wake));
      // Rate bound: one batch per slot of batchSize/eventsPerSecond, however long the gate was shut.
      const slot = Math.max(Date.now(), this.nextSlot);
      this.nextSlot = slot + (count / eventsPerSecond) * 1000;
      if (slot > Date.now()) await new Promise((resolve) => setTimeout(resolve, slot - Date.now()));
      const gateways = this.options.gateways();
      const events =
        this.options.makeBatch?.(from, count, this.baseTimeMs) ??
        eventBatch(this.options.runId, from, count, this.baseTimeMs);
      const result = await this.options.importer.send(
        [gateways[(from / batchSize + c) % gateways.length], ...gateways],
        events,
      );
      if (result.status !== 200)
        throw new Error(`client ${c} gave up on events ${from}..${from + count - 1} (last status ${result.status})`);
      this.sentEvents += count;
    }
  }
}

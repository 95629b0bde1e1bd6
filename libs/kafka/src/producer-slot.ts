import { Producer } from 'kafkajs';

/**
 * One idempotent producer that is replaced after a failed send. kafkajs rewinds a partition's sequence
 * number when a send fails, although the broker may have appended the batch (an acks=all write that
 * timed out waiting for the replicas): the next batch sent under that number is taken for a duplicate
 * and silently dropped, or refused as out of order for good. A new producer id starts every sequence
 * afresh; the old producer finishes what it has in flight and is then disconnected.
 */
export class ProducerSlot {
  private current: Producer | undefined;
  private next: Promise<Producer> | undefined;
  private readonly inFlight = new Map<Producer, number>();
  private readonly retired = new Set<Producer>();
  private closed = false;

  constructor(private readonly create: () => Producer) {}

  async connect(): Promise<void> {
    await this.replacement();
  }

  /**
   * The producer to send with, counted in flight until {@link release}; never `avoid`, the producer
   * that failed the caller's last send (which gets a replacement, shared by every caller of the slot).
   */
  async acquire(avoid?: Producer): Promise<Producer> {
    const producer = this.current && this.current !== avoid ? this.current : await this.replacement();
    this.inFlight.set(producer, (this.inFlight.get(producer) ?? 0) + 1);
    return producer;
  }

  release(producer: Producer): void {
    const left = (this.inFlight.get(producer) ?? 1) - 1;
    if (left > 0) {
      this.inFlight.set(producer, left);
      return;
    }
    this.inFlight.delete(producer);
    if (this.retired.delete(producer)) void producer.disconnect().catch(() => undefined);
  }

  async close(): Promise<void> {
    this.closed = true;
    const producers = [this.current, ...this.retired].filter((p): p is Producer => p !== undefined);
    this.current = undefined;
    this.retired.clear();
    await Promise.allSettled([...producers.map((p) => p.disconnect()), this.next?.then((p) => p.disconnect())]);
  }

  private replacement(): Promise<Producer> {
    this.next ??= this.connectFresh().finally(() => (this.next = undefined));
    return this.next;
  }

  private async connectFresh(): Promise<Producer> {
    if (this.closed) throw new Error('the producer is closed');
    const producer = this.create();
    try {
      await producer.connect();
    } catch (error) {
      await producer.disconnect().catch(() => undefined);
      throw error;
    }
    if (this.closed) {
      await producer.disconnect().catch(() => undefined);
      throw new Error('the producer is closed');
    }
    const old = this.current;
    this.current = producer;
    if (old && this.inFlight.has(old)) this.retired.add(old);
    else if (old) void old.disconnect().catch(() => undefined);
    return producer;
  }
}

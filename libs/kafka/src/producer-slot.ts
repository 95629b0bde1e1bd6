import { PublishingProducer } from './publishing-client';

/**
 * One idempotent producer that is replaced after a failed send. After a failed send the broker may
 * still have appended the batch (an acks=all write that timed out waiting for the replicas), so the
 * producer's sequence numbers for that partition can no longer be trusted: a batch sent under a reused
 * number is taken for a duplicate and silently dropped, or refused as out of order for good. A new
 * producer starts every sequence afresh; the old one finishes what it has in flight and is then
 * disconnected.
 */
export class ProducerSlot {
  private current: PublishingProducer | undefined;
  private next: Promise<PublishingProducer> | undefined;
  private readonly inFlight = new Map<PublishingProducer, number>();
  private readonly retired = new Set<PublishingProducer>();
  private closed = false;

  constructor(private readonly create: () => PublishingProducer) {}

  async connect(): Promise<void> {
    await this.replacement();
  }

  /**
   * The producer to send with, counted in flight until {@link release}; never `avoid`, the producer
   * that failed the caller's last send (which gets a replacement, shared by every caller of the slot).
   */
  async acquire(avoid?: PublishingProducer): Promise<PublishingProducer> {
    const producer = this.current && this.current !== avoid ? this.current : await this.replacement();
    this.inFlight.set(producer, (this.inFlight.get(producer) ?? 0) + 1);
    return producer;
  }

  release(producer: PublishingProducer): void {
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
    const producers = [this.current, ...this.retired].filter((p): p is PublishingProducer => p !== undefined);
    this.current = undefined;
    this.retired.clear();
    await Promise.allSettled([...producers.map((p) => p.disconnect()), this.next?.then((p) => p.disconnect())]);
  }

  private replacement(): Promise<PublishingProducer> {
    this.next ??= this.connectFresh().finally(() => (this.next = undefined));
    return this.next;
  }

  private async connectFresh(): Promise<PublishingProducer> {
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

import { asError } from '@analytics/errors';
import { MessageSlabs } from './message-slabs';
import { ProducerSlot } from './producer-slot';
import {
  Lane,
  MAX_SHARED_SEND_BYTES,
  messageBytes,
  Part,
  PartitionedMessage,
  takeParts,
  Ticket,
} from './publish-parts';
import { PublishingClient, PublishingProducer } from './publishing-client';
import { TopicPartitions } from './topic-partitions';

/**
 * The longest a shared send may take before its partitions are sent one by one: far above a healthy
 * cluster's acks=all latency, so shared sends seldom split, and the most a caller waits on another
 * partition's trouble before its own messages go alone.
 */
const SHARED_SEND_TIMEOUT_MS = 2_000;

export interface PartitionPublisherOptions {
  topic: string;
  /** The longest a caller waits for the acknowledgement of its messages before it is told they failed. */
  sendTimeoutMs: number;
  /** Bytes that may wait for the broker (queued or in flight) before callers are refused. */
  maxPendingBytes: number;
  /** Producers for the partitions sent alone; each has one request in flight per broker. */
  producers: number;
  /**
   * Send the partitions that are doing well in one shared send (far fewer produce requests for many
   * small callers), and split a shared send that fails or is slow into one send per partition. Only for
   * messages whose duplicates are harmless (events, deduplicated downstream): the split sends again what
   * the broker may have written for the partitions that were fine.
   */
  shareSends: boolean;
}

/** Refused at once: too much already waits for the broker. The caller answers 503 and the client retries. */
export class PublisherFullError extends Error {}

/**
 * Publishes to one topic so that a caller's outcome depends only on its own partitions: a partition
 * that fails or stalls fails only the callers with messages for it, never another (docs/ingestion.md,
 * "Publishing"). One send in flight per partition keeps its order and the idempotent producer's
 * sequence numbers safe (ProducerSlot). The bytes waiting are bounded, and every caller has a deadline.
 */
export class PartitionPublisher {
  private readonly slots: ProducerSlot[];
  private readonly shared: ProducerSlot | undefined;
  private sharedAvoid: PublishingProducer | undefined;
  private sharing = false;
  /** Where the next shared send starts taking partitions (they take turns at the front). */
  private nextSharedLane = 0;
  private readonly sharedTimeoutMs: number;
  private readonly lanes = new Map<number, Lane>();
  private readonly topicPartitions: TopicPartitions;
  private pendingBytes = 0;
  private readonly slabs = new MessageSlabs();

  constructor(
    client: PublishingClient,
    private readonly options: PartitionPublisherOptions,
  ) {
    const { topic, sendTimeoutMs } = options;
    this.topicPartitions = new TopicPartitions(() => client.partitionCount(topic));
    this.sharedTimeoutMs = Math.min(SHARED_SEND_TIMEOUT_MS, sendTimeoutMs / 4);
    const alone = () =>
      client.producer(topic, {
        requestTimeoutMs: sendTimeoutMs,
        retryForMs: sendTimeoutMs,
        connectForMs: sendTimeoutMs,
      });
    this.slots = Array.from({ length: options.producers }, () => new ProducerSlot(alone));
    // Quick retries only (a leader that just moved), then the partitions go alone.
    const shared = () =>
      client.producer(topic, { requestTimeoutMs: this.sharedTimeoutMs, retryForMs: 1, connectForMs: sendTimeoutMs });
    this.shared = options.shareSends ? new ProducerSlot(shared) : undefined;
  }

  async connect(): Promise<void> {
    await Promise.all([...this.slots, ...(this.shared ? [this.shared] : [])].map((slot) => slot.connect()));
    await this.topicPartitions.refresh();
  }

  async disconnect(): Promise<void> {
    await Promise.all([...this.slots, ...(this.shared ? [this.shared] : [])].map((slot) => slot.close()));
  }

  /** The topic's partitions, looked up again every minute (partitions may be added while running). */
  partitions(): number {
    return this.topicPartitions.current();
  }

  /** The partition the Java clients' default partitioner (murmur2) gives a key. */
  partitionOfKey(key: string): number {
    return this.topicPartitions.ofKey(key);
  }

  /** Bytes queued or in flight now. */
  get pending(): number {
    return this.pendingBytes;
  }

  /** Resolves once the broker acknowledged every message (acks=all); rejects if any of them failed or the deadline passed. */
  publish(messages: PartitionedMessage[]): Promise<void> {
    if (!messages.length) return Promise.resolve();
    const valueBytes = messages.map((message) => Buffer.byteLength(message.value));
    const framedBytes = messages.map((message, i) => messageBytes(message, valueBytes[i]));
    const bytes = framedBytes.reduce((sum, b) => sum + b, 0);
    if (this.pendingBytes > 0 && this.pendingBytes + bytes > this.options.maxPendingBytes) {
      return Promise.reject(
        new PublisherFullError(
          `${this.pendingBytes} bytes already wait for the broker (limit ${this.options.maxPendingBytes})`,
        ),
      );
    }
    this.pendingBytes += bytes;
    // The values go into slabs here, in a frame that no waiting closure keeps: the caller's strings die
    // young instead of waiting for the broker with the answer's closures.
    return this.enqueue(
      messages.map((message, i) => {
        const held = this.slabs.hold(message.value, valueBytes[i]);
        return { message: { ...message, value: held.bytes }, held, bytes: framedBytes[i] };
      }),
    );
  }

  /** Queues the caller's held messages: its promise settles once all are acknowledged, at the first failure, or at its deadline. */
  private enqueue(heldMessages: Pick<Part, 'message' | 'held' | 'bytes'>[]): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const ticket: Ticket = {
        remaining: heldMessages.length,
        done: false,
        parts: [],
        resolve,
        reject,
        timer: undefined as unknown as NodeJS.Timeout,
      };
      ticket.timer = setTimeout(
        () => this.fail(ticket, new Error(`no acknowledgement within ${this.options.sendTimeoutMs / 1000} s`)),
        this.options.sendTimeoutMs,
      );
      for (const heldMessage of heldMessages) {
        const part: Part = { ...heldMessage, ticket, state: 'queued', holders: 0, released: false };
        ticket.parts.push(part);
        this.lane(part.message.partition).queue.push(part);
      }
      this.dispatch();
    });
  }

  private lane(partition: number): Lane {
    let lane = this.lanes.get(partition);
    if (!lane) this.lanes.set(partition, (lane = { partition, queue: [], busy: false, troubled: false }));
    return lane;
  }

  /** Starts whatever can go: troubled partitions (every partition, without shared sends) alone, the others in a shared send. */
  private dispatch(): void {
    for (const lane of this.lanes.values()) {
      if (!lane.busy && lane.queue.length && (!this.shared || lane.troubled)) void this.drainAlone(lane);
    }
    if (this.shared) void this.drainShared();
  }

  private async drainAlone(lane: Lane): Promise<void> {
    lane.busy = true;
    try {
      while (lane.queue.length && (!this.shared || lane.troubled)) {
        const parts = takeParts(lane);
        if (parts.length) await this.sendAlone(lane, parts);
      }
    } finally {
      lane.busy = false;
    }
    if (lane.queue.length) this.dispatch();
  }

  private async drainShared(): Promise<void> {
    if (this.sharing) return;
    this.sharing = true;
    try {
      for (;;) {
        const batch = this.takeShared();
        if (!batch.length) return;
        batch.forEach(({ lane }) => (lane.busy = true));
        const parts = batch.flatMap(({ parts }) => parts);
        const { error, producer } = await this.sendOn(this.shared!, this.sharedAvoid, parts, this.sharedTimeoutMs);
        if (!error) {
          parts.forEach((part) => this.acknowledge(part));
          batch.forEach(({ lane }) => (lane.busy = false));
          continue;
        }
        if (producer) this.sharedAvoid = producer;
        // Each partition's messages again, alone: a partition's trouble answers only its own callers.
        for (const { lane, parts } of batch) void this.resendAlone(lane, parts);
      }
    } finally {
      this.sharing = false;
    }
  }

  /**
   * What the healthy partitions have waiting, up to a shared send's bytes. The partitions take turns
   * at the front, so that a backlog larger than one send serves every partition in turn.
   */
  private takeShared(): { lane: Lane; parts: Part[] }[] {
    const lanes = [...this.lanes.values()];
    const start = this.nextSharedLane % Math.max(1, lanes.length);
    const batch: { lane: Lane; parts: Part[] }[] = [];
    let bytes = 0;
    for (const [i, lane] of [...lanes.slice(start), ...lanes.slice(0, start)].entries()) {
      if (lane.busy || lane.troubled || !lane.queue.length) continue;
      const parts = takeParts(lane, MAX_SHARED_SEND_BYTES - bytes, batch.length > 0);
      if (!parts.length) continue;
      batch.push({ lane, parts });
      bytes += parts.reduce((sum, part) => sum + part.bytes, 0);
      this.nextSharedLane = start + i + 1;
    }
    return batch;
  }

  private async resendAlone(lane: Lane, parts: Part[]): Promise<void> {
    try {
      await this.sendAlone(lane, parts);
    } finally {
      lane.busy = false;
    }
    this.dispatch();
  }

  private async sendAlone(lane: Lane, parts: Part[]): Promise<void> {
    const live = parts.filter((part) => part.state === 'sending' && !part.ticket.done);
    parts.filter((part) => !live.includes(part)).forEach((part) => this.settle(part));
    if (!live.length) return;
    const slot = this.slots[lane.partition % this.slots.length];
    const { error, producer } = await this.sendOn(slot, lane.avoid, live, this.options.sendTimeoutMs);
    if (!error) {
      lane.troubled = false;
      live.forEach((part) => this.acknowledge(part));
      return;
    }
    // A send that failed, or still runs past its deadline, leaves this producer's sequence for the
    // partition untrusted: the lane moves on with another producer.
    if (producer) lane.avoid = producer;
    lane.troubled = true;
    live.forEach((part) => this.fail(part.ticket, error));
  }

  /** Sends the parts on the slot's producer: the error if it failed or outlasted `timeoutMs`, and the producer used. */
  private async sendOn(
    slot: ProducerSlot,
    avoid: PublishingProducer | undefined,
    parts: Part[],
    timeoutMs: number,
  ): Promise<{ error?: Error; producer?: PublishingProducer }> {
    let producer: PublishingProducer;
    try {
      producer = await slot.acquire(avoid);
    } catch (error) {
      return { error: asError(error) };
    }
    parts.forEach((part) => part.holders++);
    const sending = producer.send(parts.map((p) => p.message));
    // Settled when the client succeeds or its retries are spent, which may be after the deadline: until then the bytes are held.
    const outcome = sending.then(() => undefined, asError);
    void outcome.then(() => {
      slot.release(producer);
      for (const part of parts) {
        part.holders--;
        this.releaseIfIdle(part);
      }
    });
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<Error>((resolve) => {
      timer = setTimeout(() => resolve(new Error(`no acknowledgement within ${timeoutMs / 1000} s`)), timeoutMs);
    });
    const error = await Promise.race([outcome, deadline]).finally(() => clearTimeout(timer));
    return { error, producer };
  }

  private acknowledge(part: Part): void {
    this.settle(part);
    const { ticket } = part;
    if (ticket.done) return;
    if (--ticket.remaining === 0) {
      ticket.done = true;
      clearTimeout(ticket.timer);
      ticket.resolve();
    }
  }

  /** Fails the caller and withdraws its messages still queued: its client retries the whole request. */
  private fail(ticket: Ticket, error: Error): void {
    if (ticket.done) return;
    ticket.done = true;
    clearTimeout(ticket.timer);
    ticket.parts.forEach((part) => this.settle(part));
    ticket.reject(error);
  }

  private settle(part: Part): void {
    part.state = 'settled';
    this.releaseIfIdle(part);
  }

  private releaseIfIdle(part: Part): void {
    if (part.released || part.state !== 'settled' || part.holders > 0) return;
    part.released = true;
    this.pendingBytes -= part.bytes;
    this.slabs.giveBack(part.held);
  }
}

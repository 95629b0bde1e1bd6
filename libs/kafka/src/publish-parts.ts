import type { HeldBytes } from './message-slabs';
import type { PublishingProducer } from './publishing-client';

/** What one send may carry for a partition: one record batch, under the broker's default message.max.bytes (1 MB). */
export const MAX_SEND_BYTES = 900_000;
/**
 * What one shared send may carry in all. The broker reads a produce request into one heap buffer,
 * and one of half a G1 region or more is a humongous allocation and a GC trigger: 8 MB with the
 * 16 MB regions the brokers are given (deploy/k8s kafka.yaml). Uncapped, a backlog of 12 partitions
 * made requests of 10.8 MB (more with more partitions) just when the broker was already behind.
 */
export const MAX_SHARED_SEND_BYTES = 4 * 1024 * 1024;
/** A record's framing (lengths, offsets, attributes), counted so that many small messages stay under the batch limit too. */
const RECORD_OVERHEAD_BYTES = 64;

/** One message for a partition the caller chose. */
export interface PartitionedMessage {
  partition: number;
  key?: string;
  value: string | Buffer;
  headers?: Record<string, string>;
}

/** One caller's publish: answered once every part is acknowledged, or at the first failure, or at its deadline. */
export interface Ticket {
  remaining: number;
  done: boolean;
  timer: NodeJS.Timeout;
  parts: Part[];
  resolve(): void;
  reject(error: Error): void;
}

/** One message of a caller. Its bytes count as pending until it is answered and no send holds it any more. */
export interface Part {
  ticket: Ticket;
  /** The caller's message, its value now the held bytes. */
  message: PartitionedMessage;
  held: HeldBytes;
  bytes: number;
  /** Settled: acknowledged, or its caller was answered (a failure, the deadline). */
  state: 'queued' | 'sending' | 'settled';
  /** Sends in flight that carry it (a failed shared send may still be running when it is sent alone). */
  holders: number;
  released: boolean;
}

/** A partition's queue: one send in flight per partition keeps its order and its sequence numbers. */
export interface Lane {
  partition: number;
  queue: Part[];
  busy: boolean;
  /** Its last send failed: it is sent alone, never in a shared send, until a send of its own succeeds. */
  troubled: boolean;
  /** The producer that failed its last send: its sequence number for the partition is no longer trusted. */
  avoid?: PublishingProducer;
}

/** What a message counts for in a send and in the pending bytes, its value being `valueBytes` long. */
export const messageBytes = ({ key, headers }: PartitionedMessage, valueBytes: number): number =>
  RECORD_OVERHEAD_BYTES +
  valueBytes +
  (key ? Buffer.byteLength(key) : 0) +
  Object.entries(headers ?? {}).reduce((sum, [name, v]) => sum + Buffer.byteLength(name) + Buffer.byteLength(v), 0);

/**
 * The lane's queued parts, in order, that fit in `limit` bytes (one record batch at most); at least
 * one unless `mayTakeNone`. Withdrawn (settled) parts are dropped.
 */
export function takeParts(lane: Lane, limit = MAX_SEND_BYTES, mayTakeNone = false): Part[] {
  const parts: Part[] = [];
  let bytes = 0;
  while (lane.queue.length) {
    const part = lane.queue[0];
    if (part.state !== 'queued') {
      lane.queue.shift();
      continue;
    }
    if ((parts.length || mayTakeNone) && bytes + part.bytes > Math.min(limit, MAX_SEND_BYTES)) break;
    lane.queue.shift();
    part.state = 'sending';
    parts.push(part);
    bytes += part.bytes;
  }
  return parts;
}

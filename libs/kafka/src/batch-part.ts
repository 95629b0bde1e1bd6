import { IHeaders } from 'kafkajs';

/** One consumed message with a value. */
export interface BatchRecord {
  offset: string;
  value: Buffer;
  key?: Buffer | null;
  headers?: IHeaders;
  /** What the gatherer counts: the rows the value holds (1 unless the topic says otherwise). */
  rows: number;
}

/** One partition's share of a consumed batch. */
export interface BatchPart {
  topic: string;
  partition: number;
  /** The messages with a value, in offset order. */
  records: BatchRecord[];
  /** The batch's last offset (the commit moves past it), also when that message had no value. */
  lastOffset: string;
  rows: number;
}

/** Where a consumed message came from. */
export interface RecordRef {
  topic: string;
  partition: number;
  offset: string;
}

/** A message that can never be handled, and why: it goes to the topic's dead-letter topic. */
export interface DeadLetter {
  ref: RecordRef;
  reason: string;
  /** The engine's error name or code, when there is one. */
  code?: string;
}

export const nextOffset = (offset: string) => (BigInt(offset) + 1n).toString();
export const refKey = ({ topic, partition, offset }: RecordRef) => `${topic}:${partition}:${offset}`;

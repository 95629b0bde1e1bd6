import { KafkaSettings } from '@analytics/config';
import { randomUUID } from 'node:crypto';
import { IHeaders, Kafka, KafkaMessage, Message } from 'kafkajs';
import { RecordRef } from './batch-part';
import { ACKS_ALL, createIdempotentProducer } from './idempotent-producer';
import { ConsumedTopicKey, DEAD_LETTER_HEADERS, DEAD_LETTER_TOPICS, REPLAYED_FROM_HEADER, topicName } from './topics';

export interface ReplayOptions {
  topic: ConsumedTopicKey;
  /** Where to start in the dead-letter topic: an offset (in each of its partitions; it has one), or a time. */
  from: { offset: string } | { time: Date };
  /** List what would be replayed, and why each letter was written; send nothing. */
  dryRun: boolean;
}

export interface DeadLetterEntry {
  partition: number;
  offset: string;
  reason: string;
  code?: string;
  source?: RecordRef;
}

export interface ReplayReport {
  deadLetterTopic: string;
  topic: string;
  letters: DeadLetterEntry[];
  /** Per partition of the dead-letter topic, where the next replay starts so nothing is replayed twice. */
  next: { partition: number; offset: string }[];
}

interface Range {
  partition: number;
  start: string;
  /** The high watermark when the replay began: letters written meanwhile wait for the next run. */
  end: string;
}

const DEAD_LETTER_HEADER_NAMES = new Set<string>(Object.values(DEAD_LETTER_HEADERS));
const text = (value: IHeaders[string]) => (value === undefined ? undefined : String(Array.isArray(value) ? value[0] : value));
const maxOffset = (a: string, b: string) => (BigInt(a) > BigInt(b) ? a : b);

function describe(message: KafkaMessage, partition: number): DeadLetterEntry {
  const headers = message.headers ?? {};
  const sourceTopic = text(headers[DEAD_LETTER_HEADERS.sourceTopic]);
  return {
    partition,
    offset: message.offset,
    reason: text(headers[DEAD_LETTER_HEADERS.reason]) ?? '(no reason recorded)',
    code: text(headers[DEAD_LETTER_HEADERS.reasonCode]),
    source: sourceTopic
      ? { topic: sourceTopic, partition: Number(text(headers[DEAD_LETTER_HEADERS.sourcePartition])), offset: text(headers[DEAD_LETTER_HEADERS.sourceOffset]) ?? '' }
      : undefined,
  };
}

/**
 * The message as it was first sent: the dead letter's own headers dropped, where it was replayed
 * from added. A keyed message (profiles) finds its partition by key again; an events message goes
 * back to the partition it came from, where its user's other events are.
 */
function replayMessage(message: KafkaMessage, entry: DeadLetterEntry, deadLetterTopic: string): Message {
  const headers: IHeaders = Object.fromEntries(Object.entries(message.headers ?? {}).filter(([name]) => !DEAD_LETTER_HEADER_NAMES.has(name)));
  headers[REPLAYED_FROM_HEADER] = `${deadLetterTopic}:${entry.partition}:${entry.offset}`;
  const partition = !message.key?.length && entry.source && Number.isInteger(entry.source.partition) ? entry.source.partition : undefined;
  return { key: message.key, value: message.value, headers, ...(partition === undefined ? {} : { partition }) };
}

async function rangesToRead(kafka: Kafka, topic: string, from: ReplayOptions['from']): Promise<Range[]> {
  const admin = kafka.admin();
  await admin.connect();
  try {
    const offsets = await admin.fetchTopicOffsets(topic);
    const byTime = 'time' in from ? await admin.fetchTopicOffsetsByTimestamp(topic, from.time.getTime()) : [];
    return offsets.map(({ partition, high, low }) => {
      // By time, -1 means nothing was written at or after it.
      const wanted = 'offset' in from ? from.offset : (byTime.find((o) => o.partition === partition)?.offset ?? high);
      return { partition, start: maxOffset(wanted === '-1' ? high : wanted, low), end: high };
    });
  } finally {
    await admin.disconnect();
  }
}

/** Reads each range once, batch by batch, with a throwaway consumer group that commits nothing. */
async function readRanges(kafka: Kafka, settings: KafkaSettings, topic: string, ranges: Range[], each: (partition: number, messages: KafkaMessage[]) => Promise<void>): Promise<void> {
  const group = `${settings.topicPrefix}dlq-replay-${randomUUID()}`;
  const consumer = kafka.consumer({ groupId: group, maxWaitTimeInMs: 100 });
  const remaining = new Map(ranges.map((range) => [range.partition, range]));
  await consumer.connect();
  try {
    await consumer.subscribe({ topic, fromBeginning: true });
    await new Promise<void>((resolve, reject) => {
      void consumer
        .run({
          autoCommit: false,
          eachBatch: async ({ batch }) => {
            const range = remaining.get(batch.partition);
            if (!range) return;
            const inRange = batch.messages.filter((m) => BigInt(m.offset) >= BigInt(range.start) && BigInt(m.offset) < BigInt(range.end));
            try {
              if (inRange.length) await each(batch.partition, inRange);
            } catch (error) {
              reject(error);
              throw error;
            }
            if (BigInt(batch.lastOffset()) >= BigInt(range.end) - 1n) remaining.delete(batch.partition);
            if (!remaining.size) resolve();
          },
        })
        .catch(reject);
      ranges.forEach(({ partition, start }) => consumer.seek({ topic, partition, offset: start }));
    });
  } finally {
    await consumer.disconnect();
    const admin = kafka.admin();
    await admin.connect();
    await admin.deleteGroups([group]).catch(() => undefined);
    await admin.disconnect();
  }
}

/**
 * Puts dead letters back on the topic they were consumed from, after the fix that lets them be
 * written: from an offset or a time up to the end of the dead-letter topic as it was at the start.
 * Replaying a range twice sends its messages twice: events collapse by their dedup key, but a
 * profile `$add` would count twice, so each run reports where the next one starts.
 */
export async function replayDeadLetters(kafka: Kafka, settings: KafkaSettings, options: ReplayOptions): Promise<ReplayReport> {
  const deadLetterTopic = topicName(settings, DEAD_LETTER_TOPICS[options.topic]);
  const topic = topicName(settings, options.topic);
  const ranges = await rangesToRead(kafka, deadLetterTopic, options.from);
  const pending = ranges.filter(({ start, end }) => BigInt(start) < BigInt(end));
  const letters: DeadLetterEntry[] = [];
  if (pending.length) {
    const producer = options.dryRun ? undefined : createIdempotentProducer(kafka);
    await producer?.connect();
    try {
      await readRanges(kafka, settings, deadLetterTopic, pending, async (partition, messages) => {
        const entries = messages.map((message) => describe(message, partition));
        await producer?.send({ topic, acks: ACKS_ALL, messages: messages.map((message, i) => replayMessage(message, entries[i], deadLetterTopic)) });
        letters.push(...entries);
      });
    } finally {
      await producer?.disconnect();
    }
  }
  return { deadLetterTopic, topic, letters, next: ranges.map(({ partition, start, end }) => ({ partition, offset: maxOffset(start, end) })) };
}

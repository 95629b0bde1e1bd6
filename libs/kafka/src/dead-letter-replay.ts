import { IdSource } from '@analytics/clock';
import { KafkaSettings } from '@analytics/config';
import { IHeaders, Kafka, KafkaMessage, Message } from 'kafkajs';
import { DeadLetterEntry, deadLetterEntry } from './dead-letter-entry';
import { ACKS_ALL, createIdempotentProducer } from './idempotent-producer';
import {
  ConsumedTopicKey,
  DEAD_LETTER_HEADERS,
  DEAD_LETTER_TOPICS,
  REPLAYED_FROM_HEADER,
  ROWS_HEADER,
  topicName,
} from './topics';

/** What goes back on the topic for one dead letter, as a {@link ReplayScreen} decided. */
export interface ScreenedLetter {
  /** The value to send (as dead-lettered, or rewritten); undefined: the letter is not sent. */
  value?: Buffer | string;
  /** The rows the value holds now, for topics whose messages count them (ROWS_HEADER). */
  rows?: number;
  /** Rows left out, and why. */
  dropped?: { rows: number; reason: string };
}

/**
 * Looks at a batch of dead letters before they are sent back and decides, per letter, what goes
 * (undefined: the letter as it is):
 * the operator's rules (e.g. nothing a finished deletion covers) that Kafka cannot apply to the
 * dead-letter topic itself. `heartbeat` keeps the replay's consumer in its group while it waits.
 */
export type ReplayScreen = (
  topic: ConsumedTopicKey,
  letters: KafkaMessage[],
  heartbeat: () => Promise<void>,
) => Promise<(ScreenedLetter | undefined)[]>;

export interface ReplayOptions {
  topic: ConsumedTopicKey;
  /** Where to start in the dead-letter topic: an offset (in each of its partitions; it has one), or a time. */
  from: { offset: string } | { time: Date };
  /** List what would be replayed, and why each letter was written; send nothing. */
  dryRun: boolean;
  /** Applied to every batch before it is sent (and on a dry run). */
  screen?: ReplayScreen;
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
const maxOffset = (a: string, b: string) => (BigInt(a) > BigInt(b) ? a : b);

/**
 * The message as it was first sent: the dead letter's own headers dropped, where it was replayed
 * from added. A keyed message (profiles) finds its partition by key again; an events message goes
 * back to the partition it came from, where its user's other events are.
 */
function replayMessage(
  message: KafkaMessage,
  entry: DeadLetterEntry,
  deadLetterTopic: string,
  screened?: ScreenedLetter,
): Message {
  const headers: IHeaders = Object.fromEntries(
    Object.entries(message.headers ?? {}).filter(([name]) => !DEAD_LETTER_HEADER_NAMES.has(name)),
  );
  headers[REPLAYED_FROM_HEADER] = `${deadLetterTopic}:${entry.partition}:${entry.offset}`;
  if (screened?.rows !== undefined) headers[ROWS_HEADER] = String(screened.rows);
  const partition =
    !message.key?.length && entry.source && Number.isInteger(entry.source.partition)
      ? entry.source.partition
      : undefined;
  return {
    key: message.key,
    value: screened ? (screened.value ?? null) : message.value,
    headers,
    ...(partition === undefined ? {} : { partition }),
  };
}

/** The batch's letters after the screen: the messages to send, and each letter's entry. */
async function screenBatch(
  options: ReplayOptions,
  deadLetterTopic: string,
  partition: number,
  messages: KafkaMessage[],
  heartbeat: () => Promise<void>,
) {
  const entries = messages.map((message) => deadLetterEntry(message, partition));
  let screened: (ScreenedLetter | undefined)[] | undefined;
  try {
    screened = await options.screen?.(options.topic, messages, heartbeat);
  } catch (error) {
    const at = messages[0].offset;
    throw new Error(
      `replay stopped at ${deadLetterTopic}[${partition}]@${at} (the letters before it went back; the next run starts with --from-offset ${at}): ${(error as Error).message}`,
    );
  }
  const send: Message[] = [];
  messages.forEach((message, i) => {
    const letter = screened?.[i];
    entries[i].dropped = letter?.dropped;
    entries[i].sent = !letter || letter.value !== undefined;
    if (entries[i].sent) send.push(replayMessage(message, entries[i], deadLetterTopic, letter));
  });
  return { entries, send };
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

/** Reads each range once, batch by batch, with a throwaway consumer group (named from `ids`) that commits nothing. */
async function readRanges(
  kafka: Kafka,
  settings: KafkaSettings,
  ids: IdSource,
  topic: string,
  ranges: Range[],
  each: (partition: number, messages: KafkaMessage[], heartbeat: () => Promise<void>) => Promise<void>,
): Promise<void> {
  const group = `${settings.topicPrefix}dlq-replay-${ids.uuid()}`;
  const consumer = kafka.consumer({ groupId: group, maxWaitTimeInMs: 100 });
  const remaining = new Map(ranges.map((range) => [range.partition, range]));
  await consumer.connect();
  try {
    await consumer.subscribe({ topic, fromBeginning: true });
    await new Promise<void>((resolve, reject) => {
      void consumer
        .run({
          autoCommit: false,
          eachBatch: async ({ batch, heartbeat }) => {
            const range = remaining.get(batch.partition);
            if (!range) return;
            const inRange = batch.messages.filter(
              (m) => BigInt(m.offset) >= BigInt(range.start) && BigInt(m.offset) < BigInt(range.end),
            );
            try {
              if (inRange.length) await each(batch.partition, inRange, heartbeat);
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
 * profile `$add` would count twice, so each run reports where the next one starts. `screen` sees
 * each batch first and may rewrite or hold back letters. `ids` names the replay's consumer group.
 */
export async function replayDeadLetters(
  kafka: Kafka,
  settings: KafkaSettings,
  options: ReplayOptions,
  ids: IdSource,
): Promise<ReplayReport> {
  const deadLetterTopic = topicName(settings, DEAD_LETTER_TOPICS[options.topic]);
  const topic = topicName(settings, options.topic);
  const ranges = await rangesToRead(kafka, deadLetterTopic, options.from);
  const pending = ranges.filter(({ start, end }) => BigInt(start) < BigInt(end));
  const letters: DeadLetterEntry[] = [];
  if (pending.length) {
    const producer = options.dryRun ? undefined : createIdempotentProducer(kafka);
    await producer?.connect();
    try {
      await readRanges(kafka, settings, ids, deadLetterTopic, pending, async (partition, messages, heartbeat) => {
        const { entries, send } = await screenBatch(options, deadLetterTopic, partition, messages, heartbeat);
        if (send.length) await producer?.send({ topic, acks: ACKS_ALL, messages: send });
        letters.push(...entries);
      });
    } finally {
      await producer?.disconnect();
    }
  }
  return {
    deadLetterTopic,
    topic,
    letters,
    next: ranges.map(({ partition, start, end }) => ({ partition, offset: maxOffset(start, end) })),
  };
}

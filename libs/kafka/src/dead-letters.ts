import { IHeaders, Message, Producer } from 'kafkajs';
import { BatchPart, BatchRecord, DeadLetter, refKey } from './batch-part';
import { ACKS_ALL } from './idempotent-producer';
import { DEAD_LETTER_HEADERS, MAX_REASON_CHARS } from './topics';

/**
 * The dead letter of a consumed message: its value, key and headers as they were, plus why it
 * failed and where it came from, so the replay tool can put it back exactly as it was.
 */
export function deadLetterMessage(record: BatchRecord | undefined, { ref, reason, code }: DeadLetter): Message {
  const headers: IHeaders = {
    ...record?.headers,
    [DEAD_LETTER_HEADERS.reason]: reason.slice(0, MAX_REASON_CHARS),
    [DEAD_LETTER_HEADERS.sourceTopic]: ref.topic,
    [DEAD_LETTER_HEADERS.sourcePartition]: String(ref.partition),
    [DEAD_LETTER_HEADERS.sourceOffset]: ref.offset,
    ...(code ? { [DEAD_LETTER_HEADERS.reasonCode]: code } : {}),
  };
  return { key: record?.key ?? null, value: record?.value ?? null, headers };
}

/** Sends the letters of a batch's messages to the dead-letter topic, acknowledged by all replicas. */
export async function sendDeadLetters(
  producer: Producer,
  topic: string,
  parts: BatchPart[],
  letters: DeadLetter[],
): Promise<void> {
  if (!letters.length) return;
  const records = new Map(
    parts.flatMap((p) =>
      p.records.map((r) => [refKey({ topic: p.topic, partition: p.partition, offset: r.offset }), r]),
    ),
  );
  await producer.send({
    topic,
    acks: ACKS_ALL,
    messages: letters.map((letter) => deadLetterMessage(records.get(refKey(letter.ref)), letter)),
  });
}

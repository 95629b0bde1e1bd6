import { IHeaders, KafkaMessage } from 'kafkajs';
import { RecordRef } from './batch-part';
import { DEAD_LETTER_HEADERS } from './topics';

/** One dead letter as a replay reports it: where it sits, why it was dead-lettered, where it came from, what became of it. */
export interface DeadLetterEntry {
  partition: number;
  offset: string;
  reason: string;
  code?: string;
  source?: RecordRef;
  /** Rows the screen left out (all of them when the letter was not sent), and why. */
  dropped?: { rows: number; reason: string };
  /** Whether the letter (or what the screen left of it) was sent back. */
  sent: boolean;
}

const headerText = (value: IHeaders[string]) =>
  value === undefined ? undefined : String(Array.isArray(value) ? value[0] : value);

/** The report entry of a dead letter, read from its headers. */
export function deadLetterEntry(message: KafkaMessage, partition: number): DeadLetterEntry {
  const headers = message.headers ?? {};
  const sourceTopic = headerText(headers[DEAD_LETTER_HEADERS.sourceTopic]);
  return {
    sent: true,
    partition,
    offset: message.offset,
    reason: headerText(headers[DEAD_LETTER_HEADERS.reason]) ?? '(no reason recorded)',
    code: headerText(headers[DEAD_LETTER_HEADERS.reasonCode]),
    source: sourceTopic
      ? {
          topic: sourceTopic,
          partition: Number(headerText(headers[DEAD_LETTER_HEADERS.sourcePartition])),
          offset: headerText(headers[DEAD_LETTER_HEADERS.sourceOffset]) ?? '',
        }
      : undefined,
  };
}

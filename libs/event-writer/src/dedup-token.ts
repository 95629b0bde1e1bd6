import { BatchPart, BatchRecord } from '@analytics/kafka';

/** One consumed message of the events topic and where it came from. */
export interface ConsumedMessage {
  topic: string;
  partition: number;
  record: BatchRecord;
}

/** The batch's messages in a stable order (by topic and partition, then offset), whatever order the partitions arrived in. */
export function messagesOf(parts: BatchPart[]): ConsumedMessage[] {
  return [...parts]
    .sort((a, b) => a.topic.localeCompare(b.topic) || a.partition - b.partition)
    .flatMap(({ topic, partition, records }) => records.map((record) => ({ topic, partition, record })));
}

/**
 * The insert deduplication token of some of a batch's messages: their offset ranges, partition by
 * partition, each topic named with its identity (`events@<cluster id>/<topic id>:3:100-180,…:4:7-9`). It
 * names exactly those messages, so a retry of the same insert (the whole batch, or any half the writer
 * split it into) is dropped by ClickHouse as a repeat, and no two different inserts share one: offsets
 * start from 0 again in a topic created anew or on a wiped broker, and its identity is new then.
 */
export function dedupToken(messages: ConsumedMessage[], identities: ReadonlyMap<string, string>): string {
  const ranges: string[] = [];
  let run: { key: string; first: string; last: string } | undefined;
  for (const { topic, partition, record } of messages) {
    const identity = identities.get(topic);
    if (!identity) throw new Error(`no identity for topic ${topic}`);
    const key = `${topic}@${identity}:${partition}`;
    if (run?.key === key) run.last = record.offset;
    else {
      if (run) ranges.push(`${run.key}:${run.first}-${run.last}`);
      run = { key, first: record.offset, last: record.offset };
    }
  }
  if (run) ranges.push(`${run.key}:${run.first}-${run.last}`);
  return ranges.join(',');
}

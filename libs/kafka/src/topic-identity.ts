import { KafkaSettings } from '@analytics/config';
import type { Admin } from '@platformatic/kafka';
import { BatchPart } from './batch-part';
import { platformaticConnection, platformaticKafka } from './publishing-client';

/** Kafka's id of a topic whose broker predates topic ids (Metadata v9 and older), and its client's stand-in for it. */
const ZERO_UUID = '00000000-0000-0000-0000-000000000000';

/**
 * Which topic a name stands for right now: the cluster's id and the topic's id (`<cluster>/<topic>`).
 * Both are UUIDs the broker makes up, so a topic deleted and created again, or a broker whose data
 * was wiped, has a new identity while its offsets start from 0 again. kafkajs 2.2.4 speaks Metadata
 * up to v6, which carries no topic id; @platformatic/kafka asks with v12.
 */
export interface TopicIdentities {
  /**
   * The identity of the topic the parts (all of `topic`) were read from. The broker is asked unless
   * every part continues its partition right where this writer's last batch of it ended: a
   * partition read for the first time (a writer's first batch, or one a rebalance handed over,
   * perhaps of a topic made anew while this writer read others) or whose offsets went back or jumped
   * (a topic made anew, a wiped broker, a batch read again) asks; a partition read on without a gap
   * cannot have been made anew under it. So the broker is asked about once per partition per
   * rebalance, not for every batch.
   */
  identityOf(topic: string, parts: readonly BatchPart[]): Promise<string>;
  close(): Promise<void>;
}

export function createTopicIdentities(settings: KafkaSettings): TopicIdentities {
  let admin: Admin | undefined;
  const ask = async (topic: string): Promise<string> => {
    admin ??= new (platformaticKafka().Admin)({ ...platformaticConnection(settings), retries: 2 });
    // Never the client's cache: a topic created again since the last call must show its new id.
    const metadata = await admin.metadata({ topics: [topic], forceUpdate: true });
    const id = metadata.topics.get(topic)?.id;
    if (!id) throw new Error(`topic ${topic} is not in the cluster's metadata`);
    // A broker before Kafka 2.8 names no topic ids: the cluster id alone still changes when its data is wiped.
    return id === topic || id === ZERO_UUID ? metadata.id : `${metadata.id}/${id}`;
  };
  const close = async () => {
    await admin?.close();
    admin = undefined;
  };
  return { identityOf: cachedIdentities(ask), close };
}

/** {@link TopicIdentities.identityOf} over `ask` (the broker's answer for a topic), asking only when needed. */
export function cachedIdentities(ask: (topic: string) => Promise<string>): TopicIdentities['identityOf'] {
  const known = new Map<string, string>();
  /** The last offset read per `topic:partition`: a batch that starts right after it reads on. */
  const lastRead = new Map<string, bigint>();
  return async (topic, parts) => {
    // In order, against the parts before it: a batch often holds two fetches of one partition back to back.
    const read = new Map<string, bigint>();
    let readsOn = true;
    for (const { partition, records, lastOffset } of parts) {
      const key = `${topic}:${partition}`;
      const before = read.get(key) ?? lastRead.get(key);
      if (before === undefined || BigInt(records[0]?.offset ?? lastOffset) !== before + 1n) readsOn = false;
      read.set(key, BigInt(lastOffset));
    }
    let identity = known.get(topic);
    if (identity === undefined || !readsOn) {
      identity = await ask(topic);
      known.set(topic, identity);
    }
    for (const [key, offset] of read) lastRead.set(key, offset);
    return identity;
  };
}

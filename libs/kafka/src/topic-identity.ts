import { KafkaSettings } from '@analytics/config';
import type { Admin } from '@platformatic/kafka';
import { platformaticKafka } from './publishing-client';

/** Kafka's id of a topic whose broker predates topic ids (Metadata v9 and older), and its client's stand-in for it. */
const ZERO_UUID = '00000000-0000-0000-0000-000000000000';

/**
 * Which topic a name stands for right now: the cluster's id and the topic's id (`<cluster>/<topic>`).
 * Both are UUIDs the broker makes up, so a topic deleted and created again, or a broker whose data
 * was wiped, has a new identity while its offsets start from 0 again. kafkajs 2.2.4 speaks Metadata
 * up to v6, which carries no topic id; @platformatic/kafka asks with v12.
 */
export interface TopicIdentities {
  identityOf(topic: string): Promise<string>;
  close(): Promise<void>;
}

export function createTopicIdentities(settings: KafkaSettings): TopicIdentities {
  let admin: Admin | undefined;
  return {
    async identityOf(topic) {
      admin ??= new (platformaticKafka().Admin)({ clientId: settings.clientId, bootstrapBrokers: settings.brokers, retries: 2 });
      // Never the client's cache: a topic created again since the last call must show its new id.
      const metadata = await admin.metadata({ topics: [topic], forceUpdate: true });
      const id = metadata.topics.get(topic)?.id;
      if (!id) throw new Error(`topic ${topic} is not in the cluster's metadata`);
      // A broker before Kafka 2.8 names no topic ids: the cluster id alone still changes when its data is wiped.
      return id === topic || id === ZERO_UUID ? metadata.id : `${metadata.id}/${id}`;
    },
    async close() {
      await admin?.close();
      admin = undefined;
    },
  };
}

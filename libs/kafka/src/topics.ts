import { KafkaSettings } from '@analytics/config';

/** Topic names (before the configured prefix), in one place. */
export const TOPICS = {
  events: 'events',
  eventsDeadLetter: 'events.dlq',
  profiles: 'profiles',
  profilesDeadLetter: 'profiles.dlq',
  /** Identity links (docs/identity.md), one message each, keyed and partitioned by project. */
  identities: 'identities',
  identitiesDeadLetter: 'identities.dlq',
} as const;
export type TopicKey = keyof typeof TOPICS;

/** The topics a writer consumes, and where each one's dead letters go. */
export const DEAD_LETTER_TOPICS = {
  events: 'eventsDeadLetter',
  profiles: 'profilesDeadLetter',
  identities: 'identitiesDeadLetter',
} as const satisfies Record<string, TopicKey>;
export type ConsumedTopicKey = keyof typeof DEAD_LETTER_TOPICS;

/** Consumer groups (before the configured prefix): the lag the autoscaler watches is theirs. */
export const CONSUMER_GROUPS = {
  eventsWriter: 'events-writer',
  profilesWriter: 'profiles-writer',
  identitiesWriter: 'identities-writer',
} as const;
export type ConsumerGroupKey = keyof typeof CONSUMER_GROUPS;

/**
 * An events message's value is JSONEachRow lines of the events table, ready to insert; this header
 * counts them (the writer gathers inserts by rows without parsing the value).
 */
export const ROWS_HEADER = 'rows';

/** What a dead letter carries besides the original message (its value, key and headers). */
export const DEAD_LETTER_HEADERS = {
  /** Why it could not be handled: the engine's error message, or the decoder's. */
  reason: 'reason',
  /** The engine's error name or code when there is one (CANNOT_PARSE_TEXT, 22P02), for grouping. */
  reasonCode: 'reason_code',
  sourceTopic: 'source_topic',
  sourcePartition: 'source_partition',
  sourceOffset: 'source_offset',
} as const;
/** Longer reasons are cut: they travel with every copy of the message. */
export const MAX_REASON_CHARS = 2000;

/** Set on a message the replay tool put back on its topic: `<dead-letter topic>:<partition>:<offset>`. */
export const REPLAYED_FROM_HEADER = 'replayed_from';

export interface TopicSpec {
  topic: string;
  numPartitions: number;
  replicationFactor: number;
}

export function topicName(settings: Pick<KafkaSettings, 'topicPrefix'>, key: TopicKey): string {
  return `${settings.topicPrefix}${TOPICS[key]}`;
}

export function groupId(settings: Pick<KafkaSettings, 'topicPrefix'>, key: ConsumerGroupKey): string {
  return `${settings.topicPrefix}${CONSUMER_GROUPS[key]}`;
}

/** Partition counts come from config: the writer scales up to one consumer per partition. */
export function topicSpecs(settings: KafkaSettings): TopicSpec[] {
  const spec = (key: TopicKey, numPartitions: number): TopicSpec => ({
    topic: topicName(settings, key),
    numPartitions,
    replicationFactor: settings.replicationFactor,
  });
  return [
    spec('events', settings.eventsPartitions),
    spec('eventsDeadLetter', 1),
    spec('profiles', settings.profilesPartitions),
    spec('profilesDeadLetter', 1),
    // Links are few (one per sign-in); a project's take one partition, so they apply in order.
    spec('identities', settings.profilesPartitions),
    spec('identitiesDeadLetter', 1),
  ];
}

import { KafkaSettings } from '@analytics/config';

/** Topic names (before the configured prefix), in one place. */
export const TOPICS = {
  events: 'events',
  eventsDeadLetter: 'events.dlq',
  profiles: 'profiles',
  profilesDeadLetter: 'profiles.dlq',
} as const;
export type TopicKey = keyof typeof TOPICS;

export interface TopicSpec {
  topic: string;
  numPartitions: number;
  replicationFactor: number;
}

export function topicName(settings: Pick<KafkaSettings, 'topicPrefix'>, key: TopicKey): string {
  return `${settings.topicPrefix}${TOPICS[key]}`;
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
  ];
}

import { Admin, Kafka } from 'kafkajs';
import { TopicSpec } from './topics';

/**
 * Creates missing topics and grows ones with fewer partitions than configured; never shrinks
 * (Kafka cannot) and never deletes. Safe to run from every replica at start.
 */
export async function ensureTopics(kafka: Kafka, specs: TopicSpec[]): Promise<void> {
  const admin = kafka.admin();
  await admin.connect();
  try {
    await createMissing(admin, specs);
    await growPartitions(admin, specs);
  } finally {
    await admin.disconnect();
  }
}

async function createMissing(admin: Admin, specs: TopicSpec[]): Promise<void> {
  const existing = new Set(await admin.listTopics());
  const missing = specs.filter((s) => !existing.has(s.topic));
  if (!missing.length) return;
  try {
    await admin.createTopics({ topics: missing, waitForLeaders: true });
  } catch (error) {
    // Another replica may have created them between our list and create.
    if ((error as { type?: string }).type !== 'TOPIC_ALREADY_EXISTS') throw error;
  }
}

async function growPartitions(admin: Admin, specs: TopicSpec[]): Promise<void> {
  const { topics } = await admin.fetchTopicMetadata({ topics: specs.map((s) => s.topic) });
  const grow = specs.filter((spec) => {
    const current = topics.find((t) => t.name === spec.topic)?.partitions.length ?? 0;
    return current > 0 && current < spec.numPartitions;
  });
  if (grow.length) await admin.createPartitions({ topicPartitions: grow.map((s) => ({ topic: s.topic, count: s.numPartitions })) });
}

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

async function partitionsShort(admin: Admin, specs: TopicSpec[]): Promise<TopicSpec[]> {
  const { topics } = await admin.fetchTopicMetadata({ topics: specs.map((s) => s.topic) });
  return specs.filter((spec) => (topics.find((t) => t.name === spec.topic)?.partitions.length ?? 0) < spec.numPartitions);
}

const METADATA_WAIT_MS = 10_000;

async function growPartitions(admin: Admin, specs: TopicSpec[]): Promise<void> {
  const grow = await partitionsShort(admin, specs);
  if (!grow.length) return;
  await admin.createPartitions({ topicPartitions: grow.map((s) => ({ topic: s.topic, count: s.numPartitions })) });
  // New partitions reach the metadata a moment later; producers spreading by partition count need them.
  const deadline = Date.now() + METADATA_WAIT_MS;
  while ((await partitionsShort(admin, grow)).length) {
    if (Date.now() > deadline) throw new Error(`Kafka did not show the new partitions of ${grow.map((s) => s.topic).join(', ')} in time`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

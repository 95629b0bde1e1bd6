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
    // kafkajs's own wait gives up when the new topic is not in the metadata yet; ours waits for it.
    await admin.createTopics({ topics: missing, waitForLeaders: false });
  } catch (error) {
    // Another replica may have created them between our list and create.
    if ((error as { type?: string }).type !== 'TOPIC_ALREADY_EXISTS') throw error;
  }
  await waitForLeaders(
    admin,
    missing.map((s) => s.topic),
  );
}

/** Waits on broker metadata are bounded in real time, not by the Clock: they time out I/O. */
const METADATA_WAIT_MS = 10_000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A topic just created can be missing from a broker's metadata for a moment ("This server does not
 * host this topic-partition"), which kafkajs does not retry: wait for it, within bounds.
 */
async function topicMetadata(admin: Admin, topics: string[]): ReturnType<Admin['fetchTopicMetadata']> {
  const deadline = Date.now() + METADATA_WAIT_MS;
  for (;;) {
    try {
      return await admin.fetchTopicMetadata({ topics });
    } catch (error) {
      if ((error as { type?: string }).type !== 'UNKNOWN_TOPIC_OR_PARTITION' || Date.now() > deadline) throw error;
      await sleep(100);
    }
  }
}

async function waitForLeaders(admin: Admin, names: string[]): Promise<void> {
  const deadline = Date.now() + METADATA_WAIT_MS;
  for (;;) {
    const { topics } = await topicMetadata(admin, names);
    const led = (name: string) => {
      const partitions = topics.find((t) => t.name === name)?.partitions ?? [];
      return partitions.length > 0 && partitions.every((p) => p.leader >= 0);
    };
    if (names.every(led)) return;
    if (Date.now() > deadline) throw new Error(`Kafka did not elect leaders for ${names.join(', ')} in time`);
    await sleep(100);
  }
}

async function partitionsShort(admin: Admin, specs: TopicSpec[]): Promise<TopicSpec[]> {
  const { topics } = await topicMetadata(
    admin,
    specs.map((s) => s.topic),
  );
  return specs.filter(
    (spec) => (topics.find((t) => t.name === spec.topic)?.partitions.length ?? 0) < spec.numPartitions,
  );
}

async function growPartitions(admin: Admin, specs: TopicSpec[]): Promise<void> {
  const grow = await partitionsShort(admin, specs);
  if (!grow.length) return;
  await admin.createPartitions({ topicPartitions: grow.map((s) => ({ topic: s.topic, count: s.numPartitions })) });
  // New partitions reach the metadata a moment later; producers spreading by partition count need them.
  const deadline = Date.now() + METADATA_WAIT_MS;
  while ((await partitionsShort(admin, grow)).length) {
    if (Date.now() > deadline)
      throw new Error(`Kafka did not show the new partitions of ${grow.map((s) => s.topic).join(', ')} in time`);
    await sleep(100);
  }
}

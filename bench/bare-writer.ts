import 'reflect-metadata';
import { ClickHouseDdl, ClickHouseMigrator, createClickHouseClient } from '@analytics/clickhouse';
import { EventsRepository } from '@analytics/event-store';
import { CLICKHOUSE_MIGRATIONS } from '@analytics/runtime';
import { Kafka, logLevel } from 'kafkajs';

/**
 * The bare pipeline's consumer, as its own process (like the writer): a consumer group that inserts
 * each fetched batch's bytes into ClickHouse (BARE_CLICKHOUSE_URL: chDB, or a server) as they are, then commits. No batching across
 * partitions, no metrics, no dead-letter handling: the floor our writer is compared with. Uses the
 * same insert call (and table) as the writer, so only the pipeline around it differs.
 */
async function main(): Promise<void> {
  const env = (name: string) => {
    const value = process.env[name];
    if (!value) throw new Error(`${name} is required`);
    return value;
  };
  const clickhouse = createClickHouseClient(env('BARE_CLICKHOUSE_URL'));
  await new ClickHouseMigrator(clickhouse, new ClickHouseDdl(undefined)).migrate(CLICKHOUSE_MIGRATIONS);
  const events = new EventsRepository(clickhouse);
  const kafka = new Kafka({
    clientId: 'bare-writer',
    brokers: env('BARE_BROKERS').split(','),
    logLevel: logLevel.WARN,
  });
  const consumer = kafka.consumer({
    groupId: env('BARE_GROUP'),
    maxBytesPerPartition: 16 * 1024 * 1024,
    maxBytes: 64 * 1024 * 1024,
    maxWaitTimeInMs: 100,
  });
  await consumer.connect();
  await consumer.subscribe({ topic: env('BARE_TOPIC'), fromBeginning: true });
  await consumer.run({
    autoCommit: false,
    eachBatch: async ({ batch }) => {
      if (!batch.messages.length) return;
      const token = `${batch.topic}:${batch.partition}:${batch.firstOffset()}-${batch.lastOffset()}`;
      await events.insert(Buffer.concat(batch.messages.map((m) => m.value!)), token);
      await consumer.commitOffsets([
        { topic: batch.topic, partition: batch.partition, offset: (BigInt(batch.lastOffset()) + 1n).toString() },
      ]);
    },
  });
  process.stdout.write('bare writer running\n');
  const stop = async () => {
    await consumer.disconnect();
    await clickhouse.close();
    process.exit(0);
  };
  process.once('SIGTERM', () => void stop());
  process.once('SIGINT', () => void stop());
}

main().catch((error: unknown) => {
  process.stderr.write(`bare writer failed: ${(error as Error).stack}\n`);
  process.exit(1);
});

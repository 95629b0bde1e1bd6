import { Logger } from '@nestjs/common';
import { Consumer, EachBatchPayload } from 'kafkajs';

export interface BatchConsumerOptions {
  topic: string;
  partitions: number;
  eachBatch(payload: EachBatchPayload): Promise<void>;
  logger: Logger;
}

/**
 * Subscribes and runs a consumer that commits itself, after its own write: no auto-commit, no
 * auto-resolve, and every partition in flight at once (each partition's batch waits for a write
 * shared by all). Not awaited: joining the group can take a session timeout after a crash, and
 * health and metrics must answer meanwhile; a failure to run is logged for the probes to show.
 */
export async function startBatchConsumer(consumer: Consumer, { topic, partitions, eachBatch, logger }: BatchConsumerOptions): Promise<void> {
  await consumer.subscribe({ topic, fromBeginning: true });
  void consumer
    .run({ autoCommit: false, eachBatchAutoResolve: false, partitionsConsumedConcurrently: Math.max(partitions, 1), eachBatch })
    .catch((error: Error) => logger.error(`consumer of ${topic} stopped: ${error.message}`));
}

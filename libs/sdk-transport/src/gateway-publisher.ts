import { AppConfig } from '@analytics/config';
import { createPublishingClient, PartitionPublisher, TopicKey, topicName } from '@analytics/kafka';

/**
 * Producers per topic. Each keeps one request in flight per broker (idempotence), and the gateway sends
 * each partition on its own, so a few producers let the partitions that share a leader send side by
 * side (bench/event-sink.ts; docs/ingestion.md).
 */
export const GATEWAY_PRODUCERS = 4;

/**
 * How the gateway publishes to a topic: each request answered by its own partitions,
 * INGEST_KAFKA_SEND_TIMEOUT_MS for each, at most INGEST_KAFKA_MAX_PENDING_BYTES waiting. `shareSends`
 * only where a message written twice is harmless (events: the dedup key collapses it).
 */
export function createGatewayPublisher(
  config: AppConfig,
  topic: TopicKey,
  { shareSends }: { shareSends: boolean },
): PartitionPublisher {
  return new PartitionPublisher(createPublishingClient(config.kafka!), {
    topic: topicName(config.kafka!, topic),
    sendTimeoutMs: config.ingest.kafkaSendTimeoutMs,
    maxPendingBytes: config.ingest.kafkaMaxPendingBytes,
    producers: GATEWAY_PRODUCERS,
    shareSends,
  });
}

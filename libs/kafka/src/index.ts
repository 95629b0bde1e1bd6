export { Kafka } from 'kafkajs';
export { Attempter, attemptWithRetries, errorCode, FailureOutcome } from './attempt';
export { BatchPart, BatchRecord, DeadLetter } from './batch-part';
export { BatchOutcome, IDLE_FETCH_WAIT_MS } from './batch-worker';
export { BatchContext, BatchSubscriptions, KAFKA_BATCHES, startKafkaBatches } from './batch-transport';
export { createKafka } from './create-kafka';
export { deadLetterMessage } from './dead-letters';
export { ACKS_ALL, createIdempotentProducer } from './idempotent-producer';
export { ensureTopics } from './kafka-topic-admin';
export { KafkaModule } from './kafka.module';
export {
  CONSUMER_GROUPS,
  ConsumedTopicKey,
  DEAD_LETTER_HEADERS,
  DEAD_LETTER_TOPICS,
  groupId,
  REPLAYED_FROM_HEADER,
  ROWS_HEADER,
  TopicKey,
  topicName,
  topicSpecs,
  TOPICS,
} from './topics';
export { replayDeadLetters, ReplayOptions, ReplayReport, ReplayScreen, ScreenedLetter } from './dead-letter-replay';
export { PartitionPublisher, PublisherFullError } from './partition-publisher';
export { createPublishingClient } from './publishing-client';
export { createTopicIdentities, TopicIdentities } from './topic-identity';
export { MAX_SEND_BYTES, PartitionedMessage } from './publish-parts';
export { WriterProgress } from './writer-progress';

export { Kafka } from 'kafkajs';
export { Attempt, Attempter, attemptWithRetries, backoffMs, ClassifyFailure, errorCode, FailureOutcome, RetryPolicy } from './attempt';
export { BatchPart, BatchRecord, DeadLetter, nextOffset, RecordRef } from './batch-part';
export { BatchGatherer, GatherOptions } from './batch-gatherer';
export { BatchConsumer } from './batch-consumer';
export { BatchOutcome, BatchWorker, BatchWorkerOptions, IDLE_FETCH_WAIT_MS } from './batch-worker';
export { createKafka } from './create-kafka';
export { deadLetterMessage } from './dead-letters';
export { ACKS_ALL, createIdempotentProducer } from './idempotent-producer';
export { ensureTopics } from './kafka-topic-admin';
export { KafkaModule } from './kafka.module';
export {
  CONSUMER_GROUPS,
  ConsumedTopicKey,
  ConsumerGroupKey,
  DEAD_LETTER_HEADERS,
  DEAD_LETTER_TOPICS,
  groupId,
  MAX_REASON_CHARS,
  REPLAYED_FROM_HEADER,
  ROWS_HEADER,
  TOPICS,
  TopicKey,
  TopicSpec,
  topicName,
  topicSpecs,
} from './topics';
export { DeadLetterEntry, replayDeadLetters, ReplayOptions, ReplayReport, ReplayScreen, ScreenedLetter } from './dead-letter-replay';
export { PartitionPublisher, PartitionPublisherOptions, PublisherFullError } from './partition-publisher';
export { createPublishingClient, PublishingClient, PublishingProducer, PublishingProducerOptions } from './publishing-client';
export { createTopicIdentities, TopicIdentities } from './topic-identity';
export { MAX_SEND_BYTES, PartitionedMessage } from './publish-parts';
export { WriterProgress } from './writer-progress';

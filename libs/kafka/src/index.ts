export { Kafka } from 'kafkajs';
export { createKafka } from './create-kafka';
export { ensureTopics } from './kafka-topic-admin';
export { KafkaModule } from './kafka.module';
export { TOPICS, TopicKey, TopicSpec, topicName, topicSpecs } from './topics';
export { BatchConsumerOptions, startBatchConsumer } from './batch-consumer';

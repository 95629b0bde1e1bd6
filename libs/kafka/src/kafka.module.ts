import { AppConfig } from '@analytics/config';
import { DynamicModule, Global, Module, OnModuleInit } from '@nestjs/common';
import { Kafka } from 'kafkajs';
import { BatchSubscriptions } from './batch-transport';
import { createKafka } from './create-kafka';
import { ensureTopics } from './kafka-topic-admin';
import { topicSpecs } from './topics';

@Global()
@Module({})
class KafkaConnectionModule implements OnModuleInit {
  constructor(
    private readonly kafka: Kafka,
    private readonly config: AppConfig,
  ) {}

  async onModuleInit(): Promise<void> {
    if (this.config.kafka) await ensureTopics(this.kafka, topicSpecs(this.config.kafka));
  }
}

/**
 * The kafkajs client from KAFKA_BROKERS, with topics ensured at start, and the registry of the writers'
 * subscriptions (the batch transport's, `startKafkaBatches`). Without KAFKA_BROKERS this
 * module provides nothing and the gateways hand batches to the writer code in-process.
 */
@Module({})
export class KafkaModule {
  static forRoot(config: AppConfig): DynamicModule {
    const settings = config.kafka;
    if (!settings) return { module: KafkaModule };
    return {
      module: KafkaModule,
      imports: [
        {
          module: KafkaConnectionModule,
          global: true,
          providers: [{ provide: Kafka, useFactory: () => createKafka(settings) }, BatchSubscriptions],
          exports: [Kafka, BatchSubscriptions],
        },
      ],
    };
  }
}

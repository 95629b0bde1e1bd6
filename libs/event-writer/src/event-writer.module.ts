import { AppConfig } from '@analytics/config';
import { DynamicModule, Module, Provider } from '@nestjs/common';
import { EventsConsumer } from './events.consumer';
import { EventsRepository } from './events.repository';
import { InProcessEventsWriter } from './events-writer';
import { WriterMetrics } from './writer-metrics';

/**
 * The events writer. With a broker and the writer service in this process, the Kafka consumer runs;
 * without a broker, the in-process writer serves the gateway.
 */
@Module({})
export class EventWriterModule {
  static forRoot(config: AppConfig): DynamicModule {
    const providers: Provider[] = [EventsRepository, WriterMetrics, InProcessEventsWriter];
    if (config.kafka && config.runs('writer')) providers.push(EventsConsumer);
    return { module: EventWriterModule, providers, exports: [InProcessEventsWriter, EventsRepository] };
  }
}

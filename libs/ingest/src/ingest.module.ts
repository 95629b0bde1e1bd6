import { AuthModule } from '@analytics/auth';
import { AppConfig } from '@analytics/config';
import { EventDictionaryModule, SchemaEventDictionaryProvider } from '@analytics/dictionary';
import { EventWriterModule } from '@analytics/event-writer';
import { RateLimitsModule } from '@analytics/rate-limits';
import { DynamicModule, MiddlewareConsumer, Module, NestModule } from '@nestjs/common';
import { IngestCorsMiddleware } from './cors.middleware';
import { EventDictionaryProvider } from './event-dictionary.provider';
import { EventSink } from './event-sink';
import { ImportController } from './import.controller';
import { InProcessEventSink } from './in-process-event-sink';
import { IngestMetrics } from './ingest-metrics';
import { IngestService } from './ingest.service';
import { KafkaEventSink } from './kafka-event-sink';
import { TrackController } from './track.controller';

/** The ingestion gateway: /import and /track, publishing to Kafka or, without a broker, writing in-process. */
@Module({})
export class IngestModule implements NestModule {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: IngestModule,
      imports: [AuthModule, RateLimitsModule, EventDictionaryModule, ...(config.kafka ? [] : [EventWriterModule.forRoot(config)])],
      controllers: [ImportController, TrackController],
      providers: [
        IngestService,
        IngestMetrics,
        { provide: EventDictionaryProvider, useExisting: SchemaEventDictionaryProvider },
        { provide: EventSink, useClass: config.kafka ? KafkaEventSink : InProcessEventSink },
      ],
    };
  }

  configure(consumer: MiddlewareConsumer): void {
    consumer.apply(IngestCorsMiddleware).forRoutes('track', 'import', 'engage', 'groups');
  }
}

import { AuthModule } from '@analytics/auth';
import { IntakeOptions, oncePerIntake } from '@analytics/config';
import { EventDictionaryModule, SchemaEventDictionaryProvider } from '@analytics/dictionary';
import { EventWriterModule } from '@analytics/event-writer';
import { IdentityModule } from '@analytics/identity';
import { RateLimitsModule } from '@analytics/rate-limits';
import { IngestCorsMiddleware } from '@analytics/sdk-transport';
import { DynamicModule, MiddlewareConsumer, Module, NestModule } from '@nestjs/common';
import { EventDictionaryProvider } from './event-dictionary.provider';
import { EventSink } from './event-sink';
import { ImportController } from './import.controller';
import { InProcessEventSink } from './in-process-event-sink';
import { IngestMetrics } from './ingest-metrics';
import { IngestService } from './ingest.service';
import { KafkaEventSink } from './kafka-event-sink';
import { TrackController } from './track.controller';

/**
 * Event intake without HTTP: the ingestion rules (limits, validation, the data dictionary) and the
 * sink (Kafka, or in-process without a broker), as `IngestService`. The gateway's controllers call it,
 * and so does any worker that brings events in another way (warehouse imports), with a project and
 * records, exactly as /import does.
 */
@Module({})
export class EventIntakeModule {
  /** One module object per transport: the gateway and a worker in one process share one intake (its metrics register once). */
  static readonly forRoot = oncePerIntake(({ broker }): DynamicModule => ({
    module: EventIntakeModule,
    imports: [
      AuthModule,
      RateLimitsModule,
      EventDictionaryModule,
      ...(broker ? [] : [EventWriterModule, IdentityModule]),
    ],
    providers: [
      IngestService,
      IngestMetrics,
      { provide: EventDictionaryProvider, useExisting: SchemaEventDictionaryProvider },
      { provide: EventSink, useClass: broker ? KafkaEventSink : InProcessEventSink },
    ],
    exports: [IngestService],
  }));
}

/** The ingestion gateway: /import and /track over the event intake. */
@Module({})
export class IngestModule implements NestModule {
  static forRoot(intake: IntakeOptions): DynamicModule {
    return {
      module: IngestModule,
      imports: [AuthModule, EventIntakeModule.forRoot(intake)],
      controllers: [ImportController, TrackController],
    };
  }

  configure(consumer: MiddlewareConsumer): void {
    consumer.apply(IngestCorsMiddleware).forRoutes('track', 'import', 'engage', 'groups');
  }
}

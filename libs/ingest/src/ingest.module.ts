import { AuthModule } from '@analytics/auth';
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
 * Where intake hands what it accepted: to Kafka (`broker`), or without a broker to the writers in
 * this process before it answers. The service map decides, from KAFKA_BROKERS.
 */
export interface IntakeOptions {
  broker: boolean;
}

/**
 * Event intake without HTTP: the ingestion rules (limits, validation, the data dictionary) and the
 * sink (Kafka, or in-process without a broker), as `IngestService`. The gateway's controllers call it,
 * and so does any worker that brings events in another way (warehouse imports), with a project and
 * records, exactly as /import does.
 */
@Module({})
export class EventIntakeModule {
  private static readonly built = new Map<boolean, DynamicModule>();

  /** One module object per transport: the gateway and a worker in one process share one intake (its metrics register once). */
  static forRoot({ broker }: IntakeOptions): DynamicModule {
    const built = EventIntakeModule.built.get(broker) ?? {
      module: EventIntakeModule,
      imports: [AuthModule, RateLimitsModule, EventDictionaryModule, ...(broker ? [] : [EventWriterModule, IdentityModule])],
      providers: [
        IngestService,
        IngestMetrics,
        { provide: EventDictionaryProvider, useExisting: SchemaEventDictionaryProvider },
        { provide: EventSink, useClass: broker ? KafkaEventSink : InProcessEventSink },
      ],
      exports: [IngestService],
    };
    EventIntakeModule.built.set(broker, built);
    return built;
  }
}

/** The ingestion gateway: /import and /track over the event intake. */
@Module({})
export class IngestModule implements NestModule {
  static forRoot(intake: IntakeOptions): DynamicModule {
    return { module: IngestModule, imports: [AuthModule, EventIntakeModule.forRoot(intake)], controllers: [ImportController, TrackController] };
  }

  configure(consumer: MiddlewareConsumer): void {
    consumer.apply(IngestCorsMiddleware).forRoutes('track', 'import', 'engage', 'groups');
  }
}

import { Module } from '@nestjs/common';
import { EventsConsumer } from './events.consumer';
import { EventsRepository } from './events.repository';
import { InProcessEventsWriter } from './events-writer';
import { WriterMetrics } from './writer-metrics';

/** The events writer: the repository, and the in-process writer that serves the gateway without a broker. */
@Module({
  providers: [EventsRepository, WriterMetrics, InProcessEventsWriter],
  exports: [InProcessEventsWriter, EventsRepository, WriterMetrics],
})
export class EventWriterModule {}

/** The events writer's consumer of the events topic: the service map mounts it where the writer runs with a broker. */
@Module({ imports: [EventWriterModule], providers: [EventsConsumer] })
export class EventsConsumerModule {}

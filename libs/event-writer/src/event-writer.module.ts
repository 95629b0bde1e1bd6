import { EventStoreModule } from '@analytics/event-store';
import { Module } from '@nestjs/common';
import { EventsConsumer } from './events.consumer';
import { InProcessEventsWriter } from './events-writer';
import { WriterMetrics } from './writer-metrics';

/** The events writer: the in-process writer that serves the gateway without a broker, over the event store's insert. */
@Module({
  imports: [EventStoreModule],
  providers: [WriterMetrics, InProcessEventsWriter],
  exports: [InProcessEventsWriter, EventStoreModule, WriterMetrics],
})
export class EventWriterModule {}

/** The events writer's consumer of the events topic: the service map mounts it where the writer runs with a broker. */
@Module({ imports: [EventWriterModule], controllers: [EventsConsumer] })
export class EventsConsumerModule {}

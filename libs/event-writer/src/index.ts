export { dedupToken } from './dedup-token';
export { EVENTS_WRITER_GROUP, EventsConsumer } from './events.consumer';
export { EventsRepository } from './events.repository';
export { InProcessEventsWriter } from './events-writer';
export { EventWriterModule } from './event-writer.module';

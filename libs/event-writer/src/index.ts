export { EVENTS_WRITER_GROUP, EventsConsumer, ROWS_HEADER } from './events.consumer';
export { EventsRepository } from './events.repository';
export { InProcessEventsWriter } from './events-writer';
export { EventWriterModule } from './event-writer.module';
export { BatchPart, dedupToken, InsertBatcher } from './insert-batcher';

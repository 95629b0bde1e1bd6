export { messagesOf } from './dedup-token';
export { EVENTS_WRITER_GROUP } from './events.consumer';
export { InProcessEventsWriter, RefusedRow } from './events-writer';
export { EventsConsumerModule, EventWriterModule } from './event-writer.module';
export { classifyInsertFailure } from './insert-failure';

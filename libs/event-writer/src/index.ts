export { ConsumedMessage, dedupToken, messagesOf } from './dedup-token';
export { EVENTS_WRITER_GROUP, EventsConsumer } from './events.consumer';
export { EventsRepository } from './events.repository';
export { InProcessEventsWriter, RefusedRow } from './events-writer';
export { EventsConsumerModule, EventWriterModule } from './event-writer.module';
export { classifyInsertFailure, TRANSIENT_CLICKHOUSE_ERRORS } from './insert-failure';
export { InsertAttempt, insertBisecting, Refusal } from './insert-bisect';
